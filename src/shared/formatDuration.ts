/** A duration for people: "850 ms", "1.25 s". Shared by the extension and the webviews. */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

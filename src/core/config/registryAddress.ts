/** Two registry addresses name the same registry (case of the host, a trailing slash aside). */
export function sameRegistry(a: string, b: string): boolean {
  const plain = (url: string) => {
    try {
      const parsed = new URL(url);
      return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
    } catch {
      return url.replace(/\/+$/, '');
    }
  };
  return plain(a) === plain(b);
}

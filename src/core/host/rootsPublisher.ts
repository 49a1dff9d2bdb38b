import { pathToFileURL } from 'node:url';
import type { FolderRef, ResolvedRoot, ResolvedServerDefinition } from '../config/serverDefinition';

/**
 * Decides which roots each server sees (its `roots` override, its own folder for folder-scoped
 * servers, else the workspace folders) and whom to tell when the workspace folders change.
 */
export class RootsPublisher {
  private folders: readonly FolderRef[] = [];

  setWorkspaceFolders(folders: readonly FolderRef[]): boolean {
    const before = JSON.stringify(this.folders);
    this.folders = [...folders];
    return before !== JSON.stringify(this.folders);
  }

  get workspaceFolders(): readonly FolderRef[] {
    return this.folders;
  }

  rootsFor(def: Pick<ResolvedServerDefinition, 'roots' | 'folder'>): ResolvedRoot[] {
    if (def.roots) return [...def.roots];
    if (def.folder) return [folderRoot(def.folder)];
    return this.folders.map(folderRoot);
  }

  /** Servers whose roots follow the workspace folders, and so must hear about a change. */
  followsWorkspace(def: Pick<ResolvedServerDefinition, 'roots' | 'folder'>): boolean {
    return def.roots === undefined && def.folder === undefined;
  }
}

function folderRoot(folder: FolderRef): ResolvedRoot {
  return { uri: pathToFileURL(folder.path).toString(), name: folder.name };
}

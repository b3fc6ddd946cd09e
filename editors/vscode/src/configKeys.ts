// Finds a dotted ds_config key (e.g. "zero_optimization.overlap_comm") in a
// JSON text, so a report can jump to it. Pure, built on jsonc-parser, which
// tolerates comments and trailing commas as DeepSpeed's own loader does.
import { findNodeAtLocation, parseTree, Node } from 'jsonc-parser';

export interface KeyLocation {
  /** Offset and length of the key's name (or of the nearest existing parent key). */
  offset: number;
  length: number;
  /** False when only a parent section was found. */
  exact: boolean;
  /** The part of the path that exists in the document. */
  foundPath: string[];
}

export function splitKeyPath(key: string): string[] {
  return key.split('.').filter((part) => part !== '');
}

function propertyKeyRange(valueNode: Node): { offset: number; length: number } {
  const property = valueNode.parent;
  const keyNode = property?.type === 'property' ? property.children?.[0] : undefined;
  return keyNode ? { offset: keyNode.offset, length: keyNode.length } : { offset: valueNode.offset, length: valueNode.length };
}

export function locateKey(text: string, key: string): KeyLocation | undefined {
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  if (!root || root.type !== 'object') return undefined;
  const path = splitKeyPath(key);
  for (let depth = path.length; depth >= 1; depth--) {
    const node = findNodeAtLocation(root, path.slice(0, depth));
    if (node) {
      return { ...propertyKeyRange(node), exact: depth === path.length, foundPath: path.slice(0, depth) };
    }
  }
  return undefined;
}

// Keyboard navigation shared by the tab lists (the app's sections, MCP
// server details, context files): a roving focus over a list of items.

/**
 * The index to move to from i in a list of n items for a navigation key
 * (arrows wrap around, Home and End go to the ends); null for other keys.
 */
export function moveIndex(key: string, i: number, n: number): number | null {
  switch (key) {
    case 'ArrowDown':
    case 'ArrowRight':
      return (i + 1) % n;
    case 'ArrowUp':
    case 'ArrowLeft':
      return (i - 1 + n) % n;
    case 'Home':
      return 0;
    case 'End':
      return n - 1;
  }
  return null;
}

/** The digit of the i-th section's Alt shortcut: 1…9, then 0 for the tenth. */
export const sectionDigit = (i: number) => String((i + 1) % 10);

/**
 * The start offset of every line of a text and a way from offsets to 1-based line and column
 * (columns in UTF-16 code units). The same contract as the `yaml` package's `LineCounter`, which
 * the parser fills as it reads, so positions found without a parse need not load that package.
 */
export class LineIndex {
  /** Offsets where lines start, ascending; filled by {@link LineIndex.addNewLine}. */
  readonly lineStarts: number[] = [];

  /** Records that a line starts at `offset` (called in ascending order). */
  readonly addNewLine = (offset: number): number => this.lineStarts.push(offset);

  /** The 1-based line and column of `offset`; line 0 when no line was recorded before it. */
  readonly linePos = (offset: number): { line: number; col: number } => {
    const starts = this.lineStarts;
    let low = 0;
    let high = starts.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (starts[middle]! < offset) low = middle + 1;
      else high = middle;
    }
    if (starts[low] === offset) return { line: low + 1, col: 1 };
    if (low === 0) return { line: 0, col: offset };
    return { line: low, col: offset - starts[low - 1]! + 1 };
  };
}

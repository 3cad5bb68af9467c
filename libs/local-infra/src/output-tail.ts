const MAX_PARTIAL_LINE_CHARS = 10_000;

/** The last lines a child process wrote, kept to explain why it failed. */
export class OutputTail {
  private readonly lines: string[] = [];
  private partial = '';

  constructor(private readonly maxLines = 40) {}

  /** Takes a chunk as it arrives and returns the lines it completed. */
  push(chunk: string | Buffer): string[] {
    const parts = (this.partial + chunk.toString()).split('\n');
    this.partial = (parts.pop() ?? '').slice(-MAX_PARTIAL_LINE_CHARS);
    const completed = parts.map((line) => line.replace(/\r$/, ''));
    this.lines.push(...completed);
    if (this.lines.length > this.maxLines) this.lines.splice(0, this.lines.length - this.maxLines);
    return completed;
  }

  toString(): string {
    return (this.partial === '' ? this.lines : [...this.lines, this.partial]).join('\n');
  }
}

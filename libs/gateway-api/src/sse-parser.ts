/** One event of a text/event-stream. */
export interface SseEvent {
  /** The `id` field; undefined when the event set none. */
  id?: string;
  /** The `event` field; `message` when absent, as the format says. */
  event: string;
  /** The `data` lines, joined by newlines. */
  data: string;
}

/**
 * Reads a text/event-stream as its chunks arrive (a chunk may end anywhere, in a line or between
 * events): each call returns the events the text completed. Comments (`: ping`) and `retry` are
 * skipped; an event without data is not dispatched, as in a browser's EventSource. The gateway's
 * task stream is read with it by the `baton` command and by the page.
 */
export class SseParser {
  private buffered = '';
  private fields: { id?: string; event?: string; data: string[] } = { data: [] };

  push(text: string): SseEvent[] {
    this.buffered += text;
    const events: SseEvent[] = [];
    let end: number;
    while ((end = this.buffered.search(/\r\n|\r|\n/)) >= 0) {
      // A CR that ends the text may be the first half of a CRLF split between two chunks.
      if (end === this.buffered.length - 1 && this.buffered.endsWith('\r')) break;
      const line = this.buffered.slice(0, end);
      const breakLength = this.buffered.startsWith('\r\n', end) ? 2 : 1;
      this.buffered = this.buffered.slice(end + breakLength);
      if (line === '') {
        const { id, event, data } = this.fields;
        if (data.length > 0) {
          events.push({ ...(id === undefined ? {} : { id }), event: event ?? 'message', data: data.join('\n') });
        }
        this.fields = { data: [] };
      } else if (!line.startsWith(':')) {
        this.field(line);
      }
    }
    return events;
  }

  private field(line: string): void {
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (name === 'data') this.fields.data.push(value);
    else if (name === 'event') this.fields.event = value;
    else if (name === 'id') this.fields.id = value;
  }
}

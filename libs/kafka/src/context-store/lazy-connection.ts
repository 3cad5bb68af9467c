/** Connects a kafkajs client once, on its first use; a failed attempt is tried again by the next use. */
export class LazyConnection {
  private connected: Promise<void> | undefined;

  constructor(private readonly client: { connect(): Promise<void> }) {}

  ensure(): Promise<void> {
    if (this.connected === undefined) {
      const attempt = this.client.connect();
      this.connected = attempt;
      attempt.catch(() => {
        if (this.connected === attempt) this.connected = undefined;
      });
    }
    return this.connected;
  }
}

/**
 * A WebSocket the stream tests drive by hand: it opens when the test accepts it, receives what the
 * test sends, and never closes by itself (like a browser's socket on a dead network) until dropped.
 */
export class FakeSocket {
  readyState = 0;
  sent: Record<string, unknown>[] = [];
  closed = false;
  constructor(
    readonly url: string,
    private readonly handlers: { open(): void; message(data: string): void; close(code?: number): void },
  ) {}
  send(data: string) {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }
  close() {
    this.closed = true;
    this.readyState = 3;
  }
  /** The server accepted the connection and greeted it. */
  accept() {
    this.readyState = 1;
    this.handlers.open();
    this.receive({ type: 'welcome', time: Date.now(), heartbeatMs: 15_000 });
  }
  receive(message: unknown) {
    this.handlers.message(JSON.stringify(message));
  }
  /** The connection dropped (1006: no close frame). */
  drop(code = 1006) {
    this.readyState = 3;
    this.handlers.close(code);
  }
  pings() {
    return this.sent.filter((m) => m.op === 'ping').length;
  }
}

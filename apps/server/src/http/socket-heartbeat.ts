import type { WebSocket } from 'ws';

/** A stream's client as the heartbeat sees it: its socket, and whether it answered the last ping. */
export interface THeartbeatClient {
  socket: WebSocket;
  alive: boolean;
}

/**
 * One heartbeat round of a WebSocket stream: a client that did not answer the previous ping is cut
 * off and dropped; every other one is pinged and sent a heartbeat message.
 */
export function heartbeatRound<TClient extends THeartbeatClient>(
  clients: Iterable<TClient>,
  drop: (client: TClient) => void,
  send: (client: TClient, message: unknown) => void,
) {
  for (const client of clients) {
    if (!client.alive) {
      client.socket.terminate();
      drop(client);
      continue;
    }
    client.alive = false;
    client.socket.ping();
    send(client, { type: 'heartbeat', time: Date.now() });
  }
}

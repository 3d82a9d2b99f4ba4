/**
 * The topology of docs/operations.md on one machine, with one command (issue 20): three instances
 * of the server on one PostgreSQL database (a new one, dropped on exit) and one NATS, behind HAProxy.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run cluster
 *
 * Needs PostgreSQL, NATS (NATS_URL, default nats://127.0.0.1:4222) and haproxy (Debian's package).
 * CLUSTER_PORT (default 8080) is the load balancer's port. Try `kill -9` on the leader's pid: another
 * instance takes over within about a second, and the portal goes on through the load balancer.
 */
import { LocalCluster } from '../apps/server/test/cluster';

if (!process.env.DATABASE_URL?.startsWith('postgres')) {
  console.error('npm run cluster needs DATABASE_URL=postgres://... (three processes share one database)');
  process.exit(2);
}
const port = Number(process.env.CLUSTER_PORT ?? 8080);
const cluster = new LocalCluster(
  3,
  { FEED: process.env.FEED ?? 'simulator' },
  { proxyPort: port, logLevel: 'info' },
);
console.log('starting three instances and HAProxy…');
await cluster.start();
const leader = await cluster.leader();
console.log(
  [
    '',
    `  Load balancer  http://127.0.0.1:${port}/  (portal; /admin for the back office)`,
    ...cluster.instances.map(
      (i) =>
        `  Instance ${i.index}     ${i.baseUrl}  pid ${i.child?.pid}${i === leader ? '  (engine leader)' : '  (standby)'}`,
    ),
    '  Demo trader    demo@example.com / Demo2026!',
    '  Administrator  admin / Admin-Test-Password-2026',
    '',
    '  kill -9 the leader to watch a failover; Ctrl-C stops everything and drops the database.',
    '',
  ].join('\n'),
);
const stop = async () => {
  await cluster.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());

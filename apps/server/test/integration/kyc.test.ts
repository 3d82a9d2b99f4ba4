import { createHash, randomUUID } from 'node:crypto';
import { CUSTOMERS_PATHS } from '@broker/contracts/admin/customers-paths';
import { ADMIN_FUNDING_PATHS } from '@broker/contracts/admin/funding-paths';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAdministrator } from '../../src/modules/access/staff';
import { cleanAbandonedUploads, filesDir } from '../../src/modules/files';
import { hashPassword } from '../../src/modules/identity/passwords';
import { createTenant } from '../../src/modules/tenancy/tenancy';
import { startTestServer, TEST_ADMIN_PASSWORD, type TTestServer } from '../helpers';
import { createStaffWithRole, type StaffClient, signInWithTwoFactor } from '../staff';
import { Trader } from '../trader';

let server: TTestServer;
let tenantId = '';
let passwordHash = '';
const PASSWORD = 'Kyc-Reviewer-2026';
const MiB = 1024 * 1024;
const UPLOAD = '/api/v1/account/golbal/upload';
const MERGE = '/api/v1/account/golbal/merge';

const PATHS = { ...CUSTOMERS_PATHS, ...ADMIN_FUNDING_PATHS };
type TStaff = StaffClient<keyof typeof PATHS>;

beforeAll(async () => {
  server = await startTestServer();
  tenantId = (
    await db().selectFrom('tenants').select('id').where('is_default', '=', true).executeTakeFirstOrThrow()
  ).id;
  passwordHash = await hashPassword(PASSWORD);
});
afterAll(() => server.close());

const db = () => server.app.services.database.db;

// Tiny files with real headers: the server types a file by its first bytes.
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1]);
const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
]);
const MP4_HEAD = [0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d, 0, 0, 2, 0];
const MP4 = new Uint8Array(MP4_HEAD);

/** A video of `size` bytes whose every byte depends on its position, so a wrong order shows. */
function video(size: number) {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + (i >> 20)) & 0xff;
  bytes.set(MP4_HEAD, 0);
  return bytes;
}
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const csrf = (trader: Trader) => ({ 'x-csrf-token': trader.api.cookies.get('csrf') ?? '' });
const upload = (trader: Trader, bytes: Uint8Array, purpose = 'kyc') =>
  trader.api.upload(`${UPLOAD}?purpose=${purpose}`, bytes);
const chunk = (
  trader: Trader,
  {
    uploadId,
    index,
    total,
    purpose = 'kyc',
  }: { uploadId: string; index: number; total: number; purpose?: string },
  bytes: Uint8Array,
) =>
  trader.api.upload(`${UPLOAD}?purpose=${purpose}&uploadId=${uploadId}&index=${index}&total=${total}`, bytes);
const state = async (trader: Trader, uploadId: string) =>
  (await (await trader.api.get(`${UPLOAD}?uploadId=${uploadId}`, csrf(trader))).json()) as {
    success: boolean;
    data: { total: number | null; received: number[]; fileId: string | null };
  };
const merge = (trader: Trader, input: { uploadId: string; total: number; purpose?: string }) =>
  trader.api.post(MERGE, { purpose: 'kyc', ...input }, csrf(trader));

/** Uploads `bytes` in 1 MiB chunks and merges them; answers the file id. */
async function chunked(trader: Trader, bytes: Uint8Array) {
  const uploadId = randomUUID();
  const total = Math.ceil(bytes.length / MiB);
  for (let index = 0; index < total; index++) {
    const sent = await chunk(trader, { uploadId, index, total }, bytes.slice(index * MiB, (index + 1) * MiB));
    expect(sent.body.success, sent.body.message).toBe(true);
  }
  const merged = await merge(trader, { uploadId, total });
  expect(merged.body.success, merged.body.message).toBe(true);
  return merged.body.data.id as string;
}

async function uploaded(trader: Trader, bytes: Uint8Array) {
  const answer = await upload(trader, bytes);
  expect(answer.body.success, answer.body.message).toBe(true);
  return answer.body.data.id as string;
}

/** A staff member of the default broker holding exactly `permissions`, signed in. */
async function staffWith(permissions: string[]): Promise<TStaff> {
  const username = `kyc${randomUUID().slice(0, 8)}`;
  await createStaffWithRole(db(), {
    tenantId,
    username,
    passwordHash,
    permissions,
    roleName: `role-${username}`,
  });
  return signInWithTwoFactor(server, (name: keyof typeof PATHS) => PATHS[name], {
    username,
    password: PASSWORD,
  });
}

const administrator = () =>
  signInWithTwoFactor(server, (name: keyof typeof PATHS) => PATHS[name], {
    username: 'admin',
    password: TEST_ADMIN_PASSWORD,
  });

const certification = (files: { front: string; selfie: string; back?: string }) => ({
  firstName: 'Ada',
  lastName: 'Lovelace',
  birthDate: '1990-12-10',
  country: 'gb',
  documentType: 'passport',
  documentNumber: 'P12345678',
  frontFileId: files.front,
  selfieFileId: files.selfie,
  ...(files.back ? { backFileId: files.back } : {}),
});

/** A trader who has submitted the basic level: answers the trader and the submission id. */
async function submittedTrader() {
  const trader = await Trader.signInStranger(server);
  const front = await uploaded(trader, JPEG);
  const selfie = await uploaded(trader, MP4);
  const sent = await trader.api.post(
    '/api/v1/usercenter/certification',
    certification({ front, selfie }),
    csrf(trader),
  );
  expect(sent.body.success, `${sent.body.message} ${JSON.stringify(sent.body.fields)}`).toBe(true);
  const row = await db()
    .selectFrom('kyc_submissions')
    .select('id')
    .where('user_id', '=', trader.userId)
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return { trader, id: row.id };
}

const auditRows = (target: string) =>
  db()
    .selectFrom('audit_events')
    .select(['action', 'actor_kind', 'actor_id', 'details'])
    .where('target', '=', target)
    .orderBy('seq')
    .execute();

describe('KYC files', () => {
  it('takes JPEG, PNG and MP4 by content, and refuses a fake image and an image over 5 MB', async () => {
    const trader = await Trader.signInStranger(server);
    for (const [bytes, mime] of [
      [JPEG, 'image/jpeg'],
      [PNG, 'image/png'],
      [MP4, 'video/mp4'],
    ] as const) {
      const answer = await upload(trader, bytes);
      expect(answer.body.success).toBe(true);
      expect(answer.body.data.mime).toBe(mime);
    }
    // A text file renamed photo.jpg and sent as image/jpeg is still not a JPEG.
    const fake = await trader.api.upload(
      `${UPLOAD}?purpose=kyc`,
      new TextEncoder().encode('not really a jpeg file'),
      {
        'content-type': 'image/jpeg',
      },
    );
    expect(fake.status).toBe(415);
    expect(fake.body.errorCode).toBe(-9007);
    const big = new Uint8Array(5 * MiB + 1);
    big.set(JPEG, 0);
    const tooBig = await upload(trader, big);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.errorCode).toBe(-9006);
    expect(tooBig.body.message).toContain('5');
    const atLimit = new Uint8Array(5 * MiB);
    atLimit.set(PNG, 0);
    expect((await upload(trader, atLimit)).body.success).toBe(true);
  });

  it('takes a 12 MB video in chunks: one sent twice, one resumed after an aborted send, merged in order', async () => {
    const trader = await Trader.signInStranger(server);
    const bytes = video(12 * MiB);
    const uploadId = randomUUID();
    const total = 12;
    const part = (index: number) => bytes.slice(index * MiB, (index + 1) * MiB);
    // Sent from the last to the first, except chunk 5, whose connection drops mid-way.
    for (let index = total - 1; index >= 0; index--) {
      if (index === 5) continue;
      const sent = await chunk(trader, { uploadId, index, total }, part(index));
      expect(sent.body.success, sent.body.message).toBe(true);
    }
    // Chunk 3 again (the client did not see the answer): harmless.
    const again = await chunk(trader, { uploadId, index: 3, total }, part(3));
    expect(again.body.data).toMatchObject({ index: 3, received: 11, total });

    const controller = new AbortController();
    const half = part(5).slice(0, MiB / 2);
    const dropped = fetch(
      `${server.baseUrl}${UPLOAD}?purpose=kyc&uploadId=${uploadId}&index=5&total=${total}`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/octet-stream',
          cookie: trader.api.cookieHeader(),
          ...csrf(trader),
        },
        body: new ReadableStream({
          start(stream) {
            stream.enqueue(half); // and never the rest
          },
        }),
        duplex: 'half',
        signal: controller.signal,
      } as RequestInit,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    controller.abort();
    await expect(dropped).rejects.toThrow();

    const early = await merge(trader, { uploadId, total });
    expect(early.status).toBe(409);
    expect(early.body.errorCode).toBe(-9101);
    const resume = await state(trader, uploadId);
    expect(resume.data.total).toBe(total);
    expect(resume.data.received).toEqual([0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11]);
    expect((await chunk(trader, { uploadId, index: 5, total }, part(5))).body.data.received).toBe(12);

    const merged = await merge(trader, { uploadId, total });
    expect(merged.body.success, merged.body.message).toBe(true);
    expect(merged.body.data).toMatchObject({ mime: 'video/mp4', size: 12 * MiB });
    // A merge sent again (its answer lost) answers the same file; a late chunk is refused.
    expect((await merge(trader, { uploadId, total })).body.data.id).toBe(merged.body.data.id);
    expect((await chunk(trader, { uploadId, index: 0, total }, part(0))).body.errorCode).toBe(-9103);
    expect((await state(trader, uploadId)).data.fileId).toBe(merged.body.data.id);

    // The bytes staff see are the video's, in order.
    const admin = await administrator();
    const file = await admin.api.get(`/api/v1/admin/files/${merged.body.data.id}`);
    expect(file.status).toBe(200);
    expect(sha(new Uint8Array(await file.arrayBuffer()))).toBe(sha(bytes));
  });

  it('holds the chunk count and the size limit under parallel requests', async () => {
    const trader = await Trader.signInStranger(server);
    const uploadId = randomUUID();
    const head = video(MiB);
    const same = await Promise.all(
      Array.from({ length: 8 }, () => chunk(trader, { uploadId, index: 0, total: 2 }, head)),
    );
    expect(same.every((answer) => answer.body.success)).toBe(true);
    expect((await state(trader, uploadId)).data.received).toEqual([0]);
    const chunkRows = await db()
      .selectFrom('upload_chunks')
      .innerJoin('upload_sessions', 'upload_sessions.id', 'upload_chunks.upload_id')
      .select('chunk_index')
      .where('upload_sessions.client_id', '=', uploadId)
      .execute();
    expect(chunkRows).toHaveLength(1);

    // An avatar (2 MB at most) of four 1 MiB chunks sent at once: exactly two fit.
    const avatarId = randomUUID();
    const image = new Uint8Array(MiB);
    image.set(PNG, 0);
    const answers = await Promise.all(
      [0, 1, 2, 3].map((index) =>
        chunk(trader, { uploadId: avatarId, index, total: 4, purpose: 'avatar' }, image),
      ),
    );
    expect(answers.filter((a) => a.body.success)).toHaveLength(2);
    expect(answers.filter((a) => a.body.errorCode === -9006)).toHaveLength(2);
    // A chunk over 1 MiB is refused.
    const over = await chunk(trader, { uploadId: randomUUID(), index: 0, total: 1 }, new Uint8Array(MiB + 1));
    expect(over.body.errorCode).toBe(-9006);
    // Another purpose or total for the same upload id is refused.
    expect((await chunk(trader, { uploadId, index: 1, total: 3 }, head)).body.errorCode).toBe(-9103);
    // Merging a video where only images go ends the upload.
    const refusedId = randomUUID();
    await chunk(trader, { uploadId: refusedId, index: 0, total: 1, purpose: 'avatar' }, MP4);
    expect((await merge(trader, { uploadId: refusedId, total: 1, purpose: 'avatar' })).body.errorCode).toBe(
      -9007,
    );
    expect((await state(trader, refusedId)).data.total).toBeNull();
  });

  it('cleans the chunks of uploads abandoned for a day', async () => {
    const trader = await Trader.signInStranger(server);
    const uploadId = randomUUID();
    await chunk(trader, { uploadId, index: 0, total: 2 }, video(1000));
    await db()
      .updateTable('upload_sessions')
      .set({ updated_at: new Date(Date.now() - 25 * 3600 * 1000) })
      .where('client_id', '=', uploadId)
      .execute();
    const cleaned = await cleanAbandonedUploads({ db: db(), dir: filesDir(server.config.DATA_DIR) });
    expect(cleaned.uploads).toBeGreaterThanOrEqual(1);
    expect((await state(trader, uploadId)).data).toMatchObject({ total: null, received: [] });
  });

  it("keeps a trader's files from another trader and from staff of another broker", async () => {
    const owner = await Trader.signInStranger(server);
    const other = await Trader.signInStranger(server);
    const front = await uploaded(owner, JPEG);
    const selfie = await uploaded(owner, MP4);
    const borrowed = await other.api.post(
      '/api/v1/usercenter/certification',
      certification({ front, selfie }),
      csrf(other),
    );
    expect(borrowed.body.errorCode).toBe(-9001);
    expect(Object.keys(borrowed.body.fields ?? {}).sort()).toEqual(['frontFileId', 'selfieFileId']);
    // Upload ids are the trader's own: another trader sees and merges nothing of them.
    const uploadId = randomUUID();
    await chunk(owner, { uploadId, index: 0, total: 1 }, JPEG);
    expect((await state(other, uploadId)).data.received).toEqual([]);
    expect((await merge(other, { uploadId, total: 1 })).body.errorCode).toBe(-9101);
    // No trader session reads a file through the staff route.
    for (const trader of [other, owner]) {
      const answer = await trader.api.get(`/api/v1/admin/files/${front}`);
      expect(answer.status).toBe(401);
      expect((await answer.json()).errorCode).toBe(-1001);
    }
    // Nor do another broker's staff, with every permission.
    const broker = await createTenant({ db: db(), slug: `kyc${randomUUID().slice(0, 6)}`, name: 'Other' });
    await ensureAdministrator({ db: db(), tenantId: broker.id, username: 'kycother', password: PASSWORD });
    const foreign = await signInWithTwoFactor(server, (name: keyof typeof PATHS) => PATHS[name], {
      username: 'kycother',
      password: PASSWORD,
      host: broker.slug,
    });
    const seen = await foreign.api.get(`/api/v1/admin/files/${front}`, { hostspecific: broker.slug });
    expect(seen.status).toBe(404);
    expect((await seen.json()).errorCode).toBe(-6009);
  });
});

describe('KYC review', () => {
  it('goes from none to pending to approved; the customer search shows it; files open in the back office', async () => {
    const trader = await Trader.signInStranger(server);
    const info = await trader.api.post('/api/v1/usercenter/certinfo', {}, csrf(trader));
    expect(info.body.data).toMatchObject({ status: 'none', seniorStatus: 'none', details: null });
    expect(info.body.data.limits).toEqual({ image: 5 * MiB, video: 50 * MiB });

    const front = await uploaded(trader, JPEG);
    const back = await uploaded(trader, PNG);
    const selfie = await chunked(trader, video(3 * MiB));
    // A video is not a document image.
    const wrongKind = await trader.api.post(
      '/api/v1/usercenter/certification',
      certification({ front: selfie, selfie }),
      csrf(trader),
    );
    expect(wrongKind.body.errorCode).toBe(-9001);
    expect(wrongKind.body.fields).toHaveProperty('frontFileId');
    const minor = await trader.api.post(
      '/api/v1/usercenter/certification',
      { ...certification({ front, selfie }), birthDate: `${new Date().getUTCFullYear() - 10}-01-01` },
      csrf(trader),
    );
    expect(minor.body.fields).toHaveProperty('birthDate');

    const sent = await trader.api.post(
      '/api/v1/usercenter/certification',
      certification({ front, back, selfie }),
      csrf(trader),
    );
    expect(sent.body.success).toBe(true);
    expect(sent.body.data).toMatchObject({ status: 'pending', rejectReason: null });
    expect(sent.body.data.details.documentNumber).toBe('*****5678');
    const twice = await trader.api.post(
      '/api/v1/usercenter/certification',
      certification({ front, back, selfie }),
      csrf(trader),
    );
    expect(twice.status).toBe(409);
    expect(twice.body.errorCode).toBe(-4201);
    expect(twice.body.message).toMatch(/already being reviewed/);
    const seniorEarly = await trader.api.post(
      '/api/v1/usercenter/seniorauth',
      { addressLine: '1 Main Street', city: 'London', proofFileId: back, videoFileId: selfie },
      csrf(trader),
    );
    expect(seniorEarly.body.errorCode).toBe(-4203);

    const reviewer = await staffWith(['kyc.view', 'kyc.review']);
    const queue = await reviewer.data('adminkycqueue', { status: 'pending', userId: trader.userId });
    expect(queue.total).toBe(1);
    expect(queue.counts).toEqual({ pending: 1, approved: 0, rejected: 0 });
    const [item] = queue.items;
    expect(item.customer.userId).toBe(trader.userId);
    expect(item.details.documentNumber).toBe('P12345678');
    expect(item.files.map((f: { role: string }) => f.role)).toEqual(['front', 'back', 'selfie']);

    const image = await reviewer.api.get(item.files[0].url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(image.headers.get('content-disposition')).toMatch(/^inline/);
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(JPEG);
    const range = await reviewer.api.get(item.files[2].url, { range: 'bytes=100-199' });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-range')).toBe(`bytes 100-199/${3 * MiB}`);
    expect(new Uint8Array(await range.arrayBuffer())).toEqual(video(3 * MiB).slice(100, 200));

    const approved = await reviewer.data('adminkycapprove', { id: item.id });
    expect(approved).toMatchObject({ status: 'approved', rejectReason: null });
    expect(approved.reviewedBy).toBeTruthy();
    const after = await trader.api.post('/api/v1/usercenter/certinfo', {}, csrf(trader));
    expect(after.body.data.status).toBe('approved');
    const again = await trader.api.post(
      '/api/v1/usercenter/certification',
      certification({ front, selfie }),
      csrf(trader),
    );
    expect(again.body.errorCode).toBe(-4202);

    const admin = await administrator();
    const search = await admin.data('admincustomerlist', { query: trader.userId, kyc: 'approved' });
    expect(search.items.map((c: { id: string; kyc: string }) => [c.id, c.kyc])).toContainEqual([
      trader.userId,
      'approved',
    ]);

    const mail = server.app.services.mailCatcher
      ?.list()
      .find((m) => m.subject.includes('identity verification is approved'));
    expect(mail).toBeDefined();

    expect((await auditRows(item.id)).map((r) => [r.action, r.actor_kind])).toEqual([
      ['kyc.submit', 'user'],
      ['kyc.approve', 'staff'],
    ]);
    // The reviewer's look at the document is in the history; a range further into the video
    // (seeking) is part of a look, not a new one.
    const looks = await db()
      .selectFrom('audit_events')
      .select(['target', 'actor_kind'])
      .where('action', '=', 'kyc.file.view')
      .where('target', 'in', [front, back, selfie])
      .execute();
    expect(looks.map((l) => [l.target, l.actor_kind])).toEqual([[front, 'staff']]);
  });

  it('rejects with a reason of at most 20 characters; the trader sees it and submits again', async () => {
    const { trader, id } = await submittedTrader();
    const reviewer = await staffWith(['kyc.view', 'kyc.review']);
    const long = await reviewer.call('adminkycreject', { id, reason: 'x'.repeat(21) });
    expect(long.body.errorCode).toBe(-9001);
    expect(long.body.fields).toHaveProperty('reason');
    const rejected = await reviewer.data('adminkycreject', { id, reason: 'Document is blurry' });
    expect(rejected).toMatchObject({ status: 'rejected', rejectReason: 'Document is blurry' });
    const info = await trader.api.post('/api/v1/usercenter/certinfo', {}, csrf(trader));
    expect(info.body.data).toMatchObject({ status: 'rejected', rejectReason: 'Document is blurry' });
    const customer = await db()
      .selectFrom('users')
      .select('kyc_status')
      .where('id', '=', trader.userId)
      .executeTakeFirstOrThrow();
    expect(customer.kyc_status).toBe('rejected');

    const front = await uploaded(trader, PNG);
    const selfie = await uploaded(trader, JPEG);
    const resent = await trader.api.post(
      '/api/v1/usercenter/certification',
      certification({ front, selfie }),
      csrf(trader),
    );
    expect(resent.body.data.status).toBe('pending');
    const newest = await reviewer.data('adminkycqueue', { userId: trader.userId });
    expect(newest.counts).toEqual({ pending: 1, approved: 0, rejected: 1 });
    const pending = newest.items[0];
    expect(pending.status).toBe('pending');
    const detail = await reviewer.data('adminkycdetail', { id: pending.id });
    expect(detail.earlier.map((s: { id: string }) => s.id)).toEqual([id]);
    expect((await auditRows(id)).map((r) => r.action)).toEqual(['kyc.submit', 'kyc.reject']);
  });

  it('opens the senior level once the basic one is approved', async () => {
    const { trader, id } = await submittedTrader();
    const reviewer = await staffWith(['kyc.view', 'kyc.review']);
    await reviewer.data('adminkycapprove', { id });
    const proof = await uploaded(trader, JPEG);
    const liveness = await chunked(trader, video(2 * MiB + 5));
    const notVideo = await trader.api.post(
      '/api/v1/usercenter/seniorauth',
      { addressLine: '1 Main Street', city: 'London', proofFileId: proof, videoFileId: proof },
      csrf(trader),
    );
    expect(notVideo.body.fields).toHaveProperty('videoFileId');
    const senior = await trader.api.post(
      '/api/v1/usercenter/seniorauth',
      {
        addressLine: '1 Main Street',
        city: 'London',
        postalCode: 'N1 9GU',
        proofFileId: proof,
        videoFileId: liveness,
      },
      csrf(trader),
    );
    expect(senior.body.data).toMatchObject({ status: 'approved', seniorStatus: 'pending' });
    const queue = await reviewer.data('adminkycqueue', {
      level: 'senior',
      status: 'pending',
      userId: trader.userId,
    });
    expect(queue.items[0].address).toEqual({
      addressLine: '1 Main Street',
      city: 'London',
      postalCode: 'N1 9GU',
    });
    expect(queue.items[0].files.map((f: { role: string; mime: string }) => [f.role, f.mime])).toEqual([
      ['proof', 'image/jpeg'],
      ['video', 'video/mp4'],
    ]);
    await reviewer.data('adminkycapprove', { id: queue.items[0].id });
    const info = await trader.api.post('/api/v1/usercenter/certinfo', {}, csrf(trader));
    expect(info.body.data).toMatchObject({ status: 'approved', seniorStatus: 'approved' });
  });

  it('lists the oldest waiting submission first', async () => {
    const first = await submittedTrader();
    const second = await submittedTrader();
    const reviewer = await staffWith(['kyc.view']);
    const queue = await reviewer.data('adminkycqueue', { status: 'pending', size: 100 });
    const ids = queue.items.map((s: { id: string }) => s.id);
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
    const times = queue.items.map((s: { submittedAt: string }) => s.submittedAt);
    expect([...times].sort()).toEqual(times);
  });

  it('gives exactly one decision when two reviewers approve and reject at once', async () => {
    const { trader, id } = await submittedTrader();
    const [one, two] = await Promise.all([
      staffWith(['kyc.view', 'kyc.review']),
      staffWith(['kyc.view', 'kyc.review']),
    ]);
    const answers = await Promise.all([
      one.call('adminkycapprove', { id }),
      two.call('adminkycreject', { id, reason: 'Mismatch' }),
      one.call('adminkycreject', { id, reason: 'Mismatch' }),
      two.call('adminkycapprove', { id }),
    ]);
    const won = answers.filter((a) => a.body.success);
    expect(won).toHaveLength(1);
    expect(answers.filter((a) => a.body.errorCode === -6011)).toHaveLength(3);
    const row = await db()
      .selectFrom('kyc_submissions')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe(won[0]?.body.data.status);
    const user = await db()
      .selectFrom('users')
      .select('kyc_status')
      .where('id', '=', trader.userId)
      .executeTakeFirstOrThrow();
    expect(user.kyc_status).toBe(row.status);
    const decisions = (await auditRows(id)).filter((r) => r.action !== 'kyc.submit');
    expect(decisions).toHaveLength(1);
  });

  it('keeps one waiting submission per level when a trader submits several at once', async () => {
    const trader = await Trader.signInStranger(server);
    const front = await uploaded(trader, JPEG);
    const selfie = await uploaded(trader, PNG);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        trader.api.post('/api/v1/usercenter/certification', certification({ front, selfie }), csrf(trader)),
      ),
    );
    expect(answers.filter((a) => a.body.success)).toHaveLength(1);
    expect(answers.filter((a) => a.body.errorCode === -4201)).toHaveLength(5);
    const rows = await db()
      .selectFrom('kyc_submissions')
      .select('id')
      .where('user_id', '=', trader.userId)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('asks kyc.view to see and kyc.review to decide', async () => {
    const { id } = await submittedTrader();
    const viewer = await staffWith(['kyc.view']);
    expect((await viewer.call('adminkycqueue', {})).body.success).toBe(true);
    const approve = await viewer.call('adminkycapprove', { id });
    expect(approve.status).toBe(403);
    expect(approve.body.errorCode).toBe(-1009);
    expect((await viewer.call('adminkycreject', { id, reason: 'No' })).status).toBe(403);
    const outsider = await staffWith(['customers.view']);
    expect((await outsider.call('adminkycqueue', {})).status).toBe(403);
    expect((await outsider.call('adminkycdetail', { id })).status).toBe(403);
    const detail = await viewer.data('adminkycdetail', { id });
    const refused = await outsider.api.get(detail.submission.files[0].url);
    expect(refused.status).toBe(403);
    expect((await refused.json()).errorCode).toBe(-1009);
    const shown = await viewer.api.get(detail.submission.files[0].url);
    expect(shown.status).toBe(200);
    expect(new Uint8Array(await shown.arrayBuffer())).toEqual(JPEG);
    const row = await db()
      .selectFrom('kyc_submissions')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('pending');
  });
});

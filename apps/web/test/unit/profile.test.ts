import type { TSimpleUser } from '@broker/contracts/routes';
import { describe, expect, it } from 'vitest';
import { feedbackProblems, givenContacts, pickAttachments } from '../../src/features/settings/feedback-form';
import { profilePatch, profileProblems, valuesOf } from '../../src/features/settings/profile-form';
import { fileKind, fileProblem, randomKey } from '../../src/features/settings/upload';

const MB = 1024 * 1024;

function simpleUser(overrides: Partial<TSimpleUser> = {}): TSimpleUser {
  return {
    userId: 'u1',
    nick: 'Demo Trader',
    avatar: null,
    sex: 0,
    profile: '',
    email: 'de**@example.com',
    phone: null,
    areaCode: null,
    areaFlag: null,
    isCert: false,
    isAuthentication: false,
    userIdentity: 0,
    wechat: '',
    qq: '',
    facebook: '',
    ins: '',
    twitter: '',
    noticeCount: 0,
    releaseCount: 0,
    followedCount: 0,
    fansCount: 0,
    orderCount: 0,
    epcCount: 0,
    visitCount: 0,
    visitsPhoto: [],
    ...overrides,
  };
}

const file = (name: string, type: string, size = 1000) => ({ name, type, size });

describe('profile form', () => {
  it('sends only the fields that changed, trimmed', () => {
    const saved = valuesOf(simpleUser({ twitter: '@demo' }));
    expect(profilePatch(saved, saved)).toEqual({});
    const patch = profilePatch(saved, {
      ...saved,
      nick: '  Marta ',
      sex: 2,
      twitter: '@demo ',
      qq: '12345',
    });
    expect(patch).toEqual({ nick: 'Marta', sex: 2, qq: '12345' });
  });

  it('sends a new avatar by its file id and a removed one as null', () => {
    const saved = valuesOf(simpleUser({ avatar: '/files/avatar/a' }));
    expect(profilePatch(saved, { ...saved, avatar: { fileId: 'b', url: '/files/avatar/b' } })).toEqual({
      avatarFileId: 'b',
    });
    expect(profilePatch(saved, { ...saved, avatar: { fileId: null, url: null } })).toEqual({
      avatarFileId: null,
    });
  });

  it('refuses an empty or too long nick and a profile text over 200 characters', () => {
    const values = valuesOf(simpleUser());
    expect(profileProblems({ ...values, nick: '   ' })).toEqual({ nick: 'validation.nickRequired' });
    expect(profileProblems({ ...values, nick: 'x'.repeat(25) })).toEqual({ nick: 'validation.nickTooLong' });
    expect(profileProblems({ ...values, profile: 'x'.repeat(201) })).toEqual({
      profile: 'validation.profileTooLong',
    });
    expect(profileProblems(values)).toEqual({});
  });
});

describe('upload checks', () => {
  it('sorts files by type or extension, as a first guess before the server reads their content', () => {
    expect(fileKind(file('me.PNG', ''))).toBe('image');
    expect(fileKind(file('clip', 'video/mp4'))).toBe('video');
    expect(fileKind(file('clip.avi', ''))).toBe('video');
    expect(fileKind(file('anim.gif', 'image/gif'))).toBeNull();
  });

  it('holds avatars to JPG or PNG up to 2 MB, and feedback to 5 MB images and 50 MB videos', () => {
    expect(fileProblem(file('me.png', 'image/png', 2 * MB), 'avatar')).toBeNull();
    expect(fileProblem(file('me.png', 'image/png', 2 * MB + 1), 'avatar')).toEqual({
      key: 'errors.-9006',
      values: { maxMb: 2 },
    });
    expect(fileProblem(file('clip.mp4', 'video/mp4'), 'avatar')).toEqual({ key: 'errors.-9007' });
    expect(fileProblem(file('shot.jpg', 'image/jpeg', 5 * MB), 'feedback')).toBeNull();
    expect(fileProblem(file('clip.mp4', 'video/mp4', 50 * MB + 1), 'feedback')).toEqual({
      key: 'errors.-9006',
      values: { maxMb: 50 },
    });
    expect(fileProblem(file('empty.png', 'image/png', 0), 'feedback')).toEqual({ key: 'errors.-9007' });
  });

  it('makes distinct 32-character idempotency keys', () => {
    const a = randomKey();
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(randomKey()).not.toBe(a);
  });
});

describe('feedback form', () => {
  const none = { email: '', phone: '', wechat: '', telegram: '' };

  it('needs at least one contact method and a well-formed email', () => {
    expect(feedbackProblems('', none)).toEqual({ contacts: 'validation.contactRequired' });
    expect(feedbackProblems('', { ...none, wechat: '   ' })).toEqual({
      contacts: 'validation.contactRequired',
    });
    expect(feedbackProblems('hi', { ...none, telegram: '@me' })).toEqual({});
    expect(feedbackProblems('hi', { ...none, email: 'not-an-email' })).toEqual({ email: 'validation.email' });
    expect(feedbackProblems('x'.repeat(501), { ...none, phone: '123' })).toEqual({
      text: 'validation.feedbackTooLong',
    });
    expect(givenContacts({ ...none, email: ' a@b.co ', phone: ' ' })).toEqual({ email: 'a@b.co' });
  });

  it('takes at most 5 images and 1 video in all, refusing the rest with a reason', () => {
    const images = Array.from({ length: 4 }, (_, i) => file(`${i}.png`, 'image/png'));
    const picked = pickAttachments(
      [...images, file('a.mp4', 'video/mp4'), file('b.avi', 'video/x-msvideo'), file('c.gif', 'image/gif')],
      { images: 2, videos: 0 },
    );
    expect(picked.accepted.map((a) => a.file.name)).toEqual(['0.png', '1.png', '2.png', 'a.mp4']);
    expect(picked.refused.map((r) => [r.file.name, r.problem.key])).toEqual([
      ['3.png', 'validation.tooManyAttachments'],
      ['b.avi', 'validation.tooManyAttachments'],
      ['c.gif', 'errors.-9007'],
    ]);
  });
});

import { useCallback, useEffect, useRef, useState } from 'react';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';
import { pickAttachments } from './feedback-form';
import { type TFileKind, uploadFile } from './upload';

export type TAttachment = {
  key: string;
  name: string;
  kind: TFileKind;
  /** A local object address of the file, for the thumbnail (feedback files are not served back). */
  preview: string;
  progress: number;
  status: 'uploading' | 'done' | 'failed';
  fileId: string | null;
  error: string | null;
};

let sequence = 0;

/**
 * The feedback's attachments: each chosen file is checked, then uploaded at once with its
 * progress; failed ones can be retried, any can be removed (an upload under way is aborted).
 */
export function useAttachments() {
  const { t, lang } = useI18n();
  const [items, setItems] = useState<TAttachment[]>([]);
  const [refused, setRefused] = useState<{ name: string; reason: string }[]>([]);
  const files = useRef(new Map<string, { file: File; abort: AbortController | null }>());

  const update = useCallback(
    (key: string, change: Partial<TAttachment>) =>
      setItems((list) => list.map((item) => (item.key === key ? { ...item, ...change } : item))),
    [],
  );

  const send = useCallback(
    async (key: string) => {
      const entry = files.current.get(key);
      if (!entry) return;
      const abort = new AbortController();
      entry.abort = abort;
      const answer = await uploadFile({
        file: entry.file,
        purpose: 'feedback',
        lang,
        signal: abort.signal,
        onProgress: (progress) => update(key, { progress }),
      });
      if (abort.signal.aborted) return;
      entry.abort = null;
      if (answer.succeed && answer.Data) update(key, { status: 'done', progress: 1, fileId: answer.Data.id });
      else
        update(key, {
          status: 'failed',
          error: failureText(answer, t),
        });
    },
    [lang, t, update],
  );

  const add = (chosen: File[]) => {
    const counts = { images: 0, videos: 0 };
    for (const item of items) counts[item.kind === 'image' ? 'images' : 'videos']++;
    const picked = pickAttachments(chosen, counts);
    setRefused(
      picked.refused.map(({ file, problem }) => ({
        name: file.name,
        reason: t(problem.key, problem.values),
      })),
    );
    const added = picked.accepted.map(({ file, kind }): TAttachment => {
      const key = `a${++sequence}`;
      files.current.set(key, { file, abort: null });
      return {
        key,
        name: file.name,
        kind,
        preview: URL.createObjectURL(file),
        progress: 0,
        status: 'uploading',
        fileId: null,
        error: null,
      };
    });
    setItems((list) => [...list, ...added]);
    for (const item of added) void send(item.key);
  };

  const release = (key: string) => {
    files.current.get(key)?.abort?.abort();
    files.current.delete(key);
  };

  const remove = (key: string) => {
    release(key);
    const gone = items.find((item) => item.key === key);
    if (gone) URL.revokeObjectURL(gone.preview);
    setItems((list) => list.filter((item) => item.key !== key));
  };

  const retry = (key: string) => {
    update(key, { status: 'uploading', progress: 0, error: null });
    void send(key);
  };

  const clear = () => {
    for (const item of items) {
      release(item.key);
      URL.revokeObjectURL(item.preview);
    }
    setItems([]);
    setRefused([]);
  };

  // Leaving the tab aborts uploads under way and releases the previews.
  const latest = useRef(items);
  latest.current = items;
  useEffect(
    () => () => {
      for (const item of latest.current) URL.revokeObjectURL(item.preview);
      for (const entry of files.current.values()) entry.abort?.abort();
    },
    [],
  );

  return {
    items,
    refused,
    dismissRefused: () => setRefused([]),
    add,
    remove,
    retry,
    clear,
    uploading: items.some((item) => item.status === 'uploading'),
    failed: items.some((item) => item.status === 'failed'),
    fileIds: items.flatMap((item) => (item.fileId ? [item.fileId] : [])),
    counts: {
      images: items.filter((item) => item.kind === 'image').length,
      videos: items.filter((item) => item.kind === 'video').length,
    },
  };
}
export type TAttachments = ReturnType<typeof useAttachments>;

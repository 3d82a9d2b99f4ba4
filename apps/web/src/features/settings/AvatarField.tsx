import { AppErrorCode } from '@broker/domain/result-codes';
import { type ChangeEvent, useEffect, useId, useRef, useState } from 'react';
import { Icon } from '../../components/Icon';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';
import { ACCEPT, fileProblem, type TFileProblem, uploadFile } from './upload';

type TUpload = { preview: string; progress: number } | null;

/**
 * The avatar with its upload (preview while it goes, progress, errors) and removal. A finished
 * upload hands the new file to the form; the profile is saved with the form's button.
 */
export function AvatarField({
  url,
  name,
  error,
  disabled,
  onChange,
}: {
  url: string | null;
  name: string;
  error: string | undefined;
  disabled: boolean;
  onChange(avatar: { fileId: string | null; url: string | null }): void;
}) {
  const { t, lang } = useI18n();
  const input = useRef<HTMLInputElement>(null);
  const abort = useRef<AbortController | null>(null);
  const [upload, setUpload] = useState<TUpload>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const hintId = useId();

  // An upload still running when the tab is left is abandoned, its preview released.
  useEffect(() => () => abort.current?.abort(), []);
  useEffect(() => {
    const preview = upload?.preview;
    return () => {
      if (preview) URL.revokeObjectURL(preview);
    };
  }, [upload?.preview]);

  const describe = (found: TFileProblem) =>
    found.key === `errors.${AppErrorCode.FILE_TYPE_REFUSED}`
      ? t('profile.avatar.typeRefused')
      : t(found.key, found.values);

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const found = fileProblem(file, 'avatar');
    if (found) {
      setProblem(describe(found));
      return;
    }
    setProblem(null);
    const controller = new AbortController();
    abort.current?.abort();
    abort.current = controller;
    setUpload({ preview: URL.createObjectURL(file), progress: 0 });
    const answer = await uploadFile({
      file,
      purpose: 'avatar',
      lang,
      signal: controller.signal,
      onProgress: (progress) => setUpload((u) => (u ? { ...u, progress } : u)),
    });
    if (controller.signal.aborted) return;
    abort.current = null;
    setUpload(null);
    if (answer.succeed && answer.Data) {
      onChange({ fileId: answer.Data.id, url: answer.Data.url });
      return;
    }
    setProblem(
      answer.ErrorCode === AppErrorCode.FILE_TYPE_REFUSED
        ? t('profile.avatar.typeRefused')
        : failureText(answer, t),
    );
  };

  const shown = upload?.preview ?? url;
  const message = problem ?? error;
  return (
    <div className="pf-avatar" data-testid="avatar-field">
      <div className="pf-avatar-frame" data-uploading={!!upload}>
        {shown ? (
          <img
            className="pf-avatar-image"
            src={shown}
            alt={t('profile.avatar.alt')}
            data-testid="avatar-image"
          />
        ) : (
          <span className="pf-avatar-initial" aria-hidden="true">
            {(name.trim() || '?').slice(0, 1).toUpperCase()}
          </span>
        )}
        {upload && (
          <span className="pf-avatar-busy">
            <span className="spinner" />
          </span>
        )}
      </div>
      <div className="pf-avatar-side">
        <div className="pf-avatar-actions">
          <input
            ref={input}
            type="file"
            accept={ACCEPT.avatar}
            className="st-sr-only"
            tabIndex={-1}
            aria-hidden="true"
            data-testid="avatar-input"
            onChange={(e) => void choose(e)}
          />
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            disabled={disabled || !!upload}
            aria-describedby={hintId}
            data-testid="avatar-upload"
            onClick={() => input.current?.click()}
          >
            <Icon name="withdraw" size={14} />
            {t(url ? 'profile.avatar.change' : 'profile.avatar.upload')}
          </button>
          {(url || upload) && (
            <button
              type="button"
              className="btn btn-ghost btn-sm st-danger-outline"
              disabled={disabled}
              data-testid="avatar-remove"
              onClick={() => {
                if (upload) {
                  abort.current?.abort();
                  abort.current = null;
                  setUpload(null);
                  return;
                }
                setProblem(null);
                onChange({ fileId: null, url: null });
              }}
            >
              {t(upload ? 'settings.cancel' : 'profile.avatar.remove')}
            </button>
          )}
        </div>
        {upload ? (
          <div
            className="pf-progress"
            role="progressbar"
            aria-label={t('profile.upload.progress')}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(upload.progress * 100)}
          >
            <span style={{ width: `${Math.round(upload.progress * 100)}%` }} />
          </div>
        ) : (
          <span className="pf-hint" id={hintId}>
            {t('profile.avatar.hint')}
          </span>
        )}
        {message && (
          <span className="field-error" role="alert" data-testid="avatar-error">
            {message}
          </span>
        )}
      </div>
    </div>
  );
}

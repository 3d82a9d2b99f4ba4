import { useEffect, useId, useRef, useState } from 'react';
import { Icon } from '../../components/Icon';
import { uploadFile } from '../../lib/chunked-upload';
import { useI18n } from '../../lib/i18n';
import { ACCEPT, checkFile, type TAllowed } from './file-check';

type TUpload =
  | { status: 'empty' }
  | { status: 'checking'; file: File }
  | { status: 'uploading'; file: File; fraction: number }
  | { status: 'done'; file: File; id: string; preview: string | null }
  | { status: 'failed'; file: File | null; message: string; retry: boolean };

/** "4.2 MB", "830 KB" in the reader's digits. */
function sizeText(formatNumber: (v: number, o?: Intl.NumberFormatOptions) => string, bytes: number) {
  if (bytes >= 1024 * 1024)
    return formatNumber(bytes / (1024 * 1024), { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 });
  return formatNumber(Math.max(1, Math.round(bytes / 1024)), { style: 'unit', unit: 'kilobyte' });
}

/** What an upload failure says: the server's message, else its key's text, else the generic one. */
function uploadFailure(error: unknown, t: (key: string) => string): string {
  if (error && typeof error === 'object') {
    const { message, messageKey } = error as { message?: unknown; messageKey?: unknown };
    if (
      typeof messageKey === 'string' &&
      messageKey !== 'errors.network' &&
      typeof message === 'string' &&
      message
    )
      return message;
    if (typeof messageKey === 'string') {
      const text = t(messageKey);
      if (text !== messageKey) return text;
    }
  }
  return t('kyc.file.failed');
}

/**
 * One document or video of the verification form: the file is checked by its first bytes and size
 * (as the server will), then sent in chunks with a progress bar; a dropped connection is retried by
 * the upload client, and Retry resumes from the chunks the server already has.
 */
export function FileField({
  label,
  hint,
  allowed,
  limits,
  required,
  onChange,
  onBusy,
  error,
  capture,
  testId,
}: {
  label: string;
  hint: string;
  allowed: TAllowed;
  limits: { image: number; video: number };
  required?: boolean;
  onChange(fileId: string | null): void;
  onBusy(busy: boolean): void;
  error?: string | null;
  capture?: 'user' | 'environment';
  testId: string;
}) {
  const { t, lang, formatNumber } = useI18n();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [upload, setUpload] = useState<TUpload>({ status: 'empty' });
  const controller = useRef<AbortController | null>(null);
  const onBusyRef = useRef(onBusy);
  onBusyRef.current = onBusy;
  const busy = upload.status === 'checking' || upload.status === 'uploading';

  useEffect(() => {
    onBusyRef.current(busy);
  }, [busy]);
  useEffect(
    () => () => {
      controller.current?.abort();
    },
    [],
  );
  const preview = upload.status === 'done' ? upload.preview : null;
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);

  const start = async (file: File) => {
    controller.current?.abort();
    onChange(null);
    setUpload({ status: 'checking', file });
    const checked = await checkFile(file, allowed, limits);
    if (checked.problem) {
      setUpload({
        status: 'failed',
        file: null,
        message: t(checked.problem.key, checked.problem.values),
        retry: false,
      });
      return;
    }
    const abort = new AbortController();
    controller.current = abort;
    setUpload({ status: 'uploading', file, fraction: 0 });
    try {
      const stored = await uploadFile(file, {
        purpose: 'kyc',
        lang,
        signal: abort.signal,
        onProgress: (fraction) => {
          if (!abort.signal.aborted) setUpload({ status: 'uploading', file, fraction });
        },
      });
      if (abort.signal.aborted) return;
      setUpload({
        status: 'done',
        file,
        id: stored.id,
        preview: checked.mime?.startsWith('image/') ? URL.createObjectURL(file) : null,
      });
      onChange(stored.id);
    } catch (failure) {
      if (abort.signal.aborted) return;
      const code = (failure as { code?: unknown }).code;
      // A refusal (type, size) needs another file; anything else can resume where it stopped.
      const refused = code === -9006 || code === -9007 || code === -9103;
      setUpload({ status: 'failed', file, message: uploadFailure(failure, t), retry: !refused });
    }
  };

  const cancel = () => {
    controller.current?.abort();
    controller.current = null;
    setUpload({ status: 'empty' });
    onChange(null);
    if (input.current) input.current.value = '';
  };

  const percent = upload.status === 'uploading' ? Math.floor(upload.fraction * 100) : 0;
  const shown = error ?? (upload.status === 'failed' ? upload.message : null);

  return (
    <div className="ky-file" data-status={upload.status} data-testid={testId}>
      <div className="ky-file-head">
        <label className="field-label" htmlFor={id} id={`${id}-label`}>
          {label}
          {!required && <span className="ky-optional"> {t('kyc.optional')}</span>}
        </label>
        <span className="ky-file-hint" id={`${id}-hint`}>
          {hint}
        </span>
      </div>
      <div className="ky-file-box">
        <input
          ref={input}
          id={id}
          type="file"
          className="ky-file-input"
          tabIndex={-1}
          accept={ACCEPT[allowed]}
          {...(capture ? { capture } : {})}
          aria-describedby={`${id}-hint ${id}-state`}
          aria-invalid={Boolean(shown)}
          disabled={busy}
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) void start(file);
          }}
          data-testid={`${testId}-input`}
        />
        {preview ? (
          <img className="ky-file-preview" src={preview} alt="" />
        ) : (
          <span className="ky-file-icon" aria-hidden="true">
            <Icon
              name={allowed === 'video' ? 'platform' : upload.status === 'done' ? 'check' : 'doc'}
              size={22}
            />
          </span>
        )}
        <div className="ky-file-body" id={`${id}-state`} aria-live="polite">
          {upload.status === 'empty' && <span className="ky-file-muted">{t('kyc.file.none')}</span>}
          {upload.status === 'checking' && <span className="ky-file-muted">{t('kyc.file.checking')}</span>}
          {(upload.status === 'uploading' || upload.status === 'done') && (
            <span className="ky-file-name">
              {upload.file.name} · <span className="num">{sizeText(formatNumber, upload.file.size)}</span>
            </span>
          )}
          {upload.status === 'uploading' && (
            <>
              <div
                className="ky-progress"
                role="progressbar"
                aria-label={t('kyc.file.progress', { name: upload.file.name })}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={percent}
                data-testid={`${testId}-progress`}
              >
                <span style={{ width: `${percent}%` }} />
              </div>
              <span className="ky-file-muted num">{t('kyc.file.uploading', { percent })}</span>
            </>
          )}
          {upload.status === 'done' && (
            <span className="ky-file-done" data-testid={`${testId}-done`}>
              <Icon name="check" size={14} />
              {t('kyc.file.uploaded')}
            </span>
          )}
          {upload.status === 'failed' && upload.file && (
            <span className="ky-file-name">{upload.file.name}</span>
          )}
        </div>
        <div className="ky-file-actions">
          {upload.status === 'uploading' && (
            <button type="button" className="btn btn-ghost btn-sm" onClick={cancel}>
              {t('kyc.file.cancel')}
            </button>
          )}
          {upload.status === 'failed' && upload.retry && upload.file && (
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              onClick={() => upload.file && void start(upload.file)}
              data-testid={`${testId}-retry`}
            >
              {t('kyc.file.retry')}
            </button>
          )}
          {!busy && (
            <button
              type="button"
              id={`${id}-choose`}
              className="btn btn-secondary btn-sm"
              onClick={() => input.current?.click()}
              aria-labelledby={`${id}-choose ${id}-label`}
              data-testid={`${testId}-choose`}
            >
              {t(upload.status === 'empty' ? 'kyc.file.choose' : 'kyc.file.replace')}
            </button>
          )}
        </div>
      </div>
      <span className="field-error" role={shown ? 'alert' : undefined} data-testid={`${testId}-error`}>
        {shown}
      </span>
    </div>
  );
}

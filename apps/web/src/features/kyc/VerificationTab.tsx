import { type FormEvent, type ReactNode, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../app/paths';
import { Icon } from '../../components/Icon';
import { callRoute } from '../../lib/api';
import { failureText } from '../../lib/failure-text';
import { TRADE_TIME, useI18n } from '../../lib/i18n';
import { FileField } from './FileField';
import { KYC_LIMITS } from './file-check';
import {
  birthDateProblem,
  DOCUMENT_NUMBER,
  DOCUMENT_TYPES,
  type TDocumentType,
  type TKycInfo,
  type TKycState,
  useCountries,
  useKycInfo,
} from './kyc-api';

const MB = 1024 * 1024;

/**
 * Identity verification (spec 5, 6, 7.6), a tab of the settings: the state of both levels (not
 * submitted, pending review, approved, rejected with the reviewer's reason), the basic form (identity
 * details, document images, a selfie photo or video) and, once that is approved, the senior level
 * (address, proof of address, a liveness video). Files are checked like the server checks them and
 * go up in resumable chunks with a progress bar each.
 */
export function Component() {
  const { t } = useI18n();
  const info = useKycInfo();
  if (info.load.status === 'loading')
    return (
      <div className="st-stack" aria-busy="true" data-testid="kyc-loading">
        <div className="card st-card">
          <div className="skeleton st-skeleton-title" />
          <div className="skeleton st-skeleton-row" />
          <div className="skeleton st-skeleton-row" />
        </div>
      </div>
    );
  if (info.load.status === 'failed')
    return (
      <div className="card st-inline-error" role="alert" data-testid="kyc-error">
        <span>{info.load.message}</span>
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => void info.reload()}>
          {t('common.retry')}
        </button>
      </div>
    );
  const data = info.load.data;
  const limits = {
    image: data.limits.image || KYC_LIMITS.image,
    video: data.limits.video || KYC_LIMITS.video,
  };
  return (
    <div className="st-stack ky-page" data-testid="kyc-page">
      <Overview info={data} />
      {(data.status === 'none' || data.status === 'rejected') && (
        <BasicForm limits={limits} rejected={data.status === 'rejected'} onSubmitted={info.set} />
      )}
      {data.status === 'approved' && (data.seniorStatus === 'none' || data.seniorStatus === 'rejected') && (
        <SeniorForm limits={limits} onSubmitted={info.set} />
      )}
    </div>
  );
}

function StateBadge({ state, testId }: { state: TKycState; testId: string }) {
  const { t } = useI18n();
  const icon =
    state === 'approved' ? 'check' : state === 'rejected' ? 'close' : state === 'pending' ? 'clock' : 'alert';
  return (
    <span className="ky-state" data-state={state} data-testid={testId}>
      <Icon name={icon} size={14} />
      {t(`kyc.state.${state}`)}
    </span>
  );
}

function Card({
  title,
  text,
  aside,
  children,
  testId,
}: {
  title: string;
  text?: string;
  aside?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  const id = useId();
  return (
    <section className="card st-card" aria-labelledby={id} data-testid={testId}>
      <header className="st-card-head">
        <div>
          <h2 id={id}>{title}</h2>
          {text && <p>{text}</p>}
        </div>
        {aside}
      </header>
      {children}
    </section>
  );
}

/** Both levels at a glance, with what each state means and what to do next. */
function Overview({ info }: { info: TKycInfo }) {
  const { t, lang, formatDate } = useI18n();
  const time = (value: string | null) => (value ? formatDate(new Date(value), TRADE_TIME) : '');
  const basicText =
    info.status === 'none'
      ? t('kyc.basic.none')
      : info.status === 'pending'
        ? t('kyc.basic.pending', { time: time(info.submittedAt) })
        : info.status === 'approved'
          ? t('kyc.basic.approved', { time: time(info.reviewedAt) })
          : t('kyc.basic.rejected', { reason: info.rejectReason ?? '—' });
  const seniorText =
    info.status !== 'approved'
      ? t('kyc.senior.locked')
      : info.seniorStatus === 'none'
        ? t('kyc.senior.none')
        : info.seniorStatus === 'pending'
          ? t('kyc.senior.pending')
          : info.seniorStatus === 'approved'
            ? t('kyc.senior.approved')
            : t('kyc.senior.rejected', { reason: info.seniorRejectReason ?? '—' });
  return (
    <Card title={t('kyc.title')} text={t('kyc.text')} testId="kyc-overview">
      <div className="ky-levels">
        <div className="ky-level" data-state={info.status}>
          <div className="ky-level-head">
            <h3>{t('kyc.basic.title')}</h3>
            <StateBadge state={info.status} testId="kyc-basic-state" />
          </div>
          <p data-testid="kyc-basic-text">{basicText}</p>
          {info.details && info.status !== 'none' && (
            <dl className="ky-details">
              <div>
                <dt>{t('kyc.field.name')}</dt>
                <dd>
                  {info.details.firstName} {info.details.lastName}
                </dd>
              </div>
              <div>
                <dt>{t('kyc.field.document')}</dt>
                <dd>
                  {t(`kyc.document.${info.details.documentType}`)} ·{' '}
                  <span className="num">{info.details.documentNumber}</span>
                </dd>
              </div>
            </dl>
          )}
          {info.status === 'approved' && (
            <Link
              to={paths.personalCenter(lang, 'deposit')}
              className="btn btn-secondary btn-sm"
              data-testid="kyc-to-deposit"
            >
              <Icon name="deposit" size={16} />
              {t('kyc.toDeposit')}
            </Link>
          )}
        </div>
        <div className="ky-level" data-state={info.status === 'approved' ? info.seniorStatus : 'locked'}>
          <div className="ky-level-head">
            <h3>{t('kyc.senior.title')}</h3>
            {info.status === 'approved' ? (
              <StateBadge state={info.seniorStatus} testId="kyc-senior-state" />
            ) : (
              <span className="ky-state" data-state="locked" data-testid="kyc-senior-state">
                <Icon name="lock" size={14} />
                {t('kyc.state.locked')}
              </span>
            )}
          </div>
          <p data-testid="kyc-senior-text">{seniorText}</p>
        </div>
      </div>
    </Card>
  );
}

function TextInput({
  label,
  value,
  onChange,
  error,
  autoComplete,
  maxLength,
  type = 'text',
  hint,
  testId,
}: {
  label: string;
  value: string;
  onChange(value: string): void;
  error?: string | undefined;
  autoComplete: string;
  maxLength?: number;
  type?: string;
  hint?: string;
  testId: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        type={type}
        className="input"
        value={value}
        autoComplete={autoComplete}
        maxLength={maxLength}
        aria-invalid={Boolean(error)}
        aria-describedby={`${id}-hint ${id}-error`}
        onChange={(e) => onChange(e.target.value)}
        data-testid={testId}
      />
      {hint && (
        <span className="ky-hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      <span className="field-error" id={`${id}-error`}>
        {error}
      </span>
    </div>
  );
}

/** Tracks which of a form's uploads are running, so the form is sent only once all are done. */
function useBusyFiles() {
  const [busy, setBusy] = useState<Record<string, boolean>>({});
  return {
    any: Object.values(busy).some(Boolean),
    set: (name: string) => (value: boolean) =>
      setBusy((b) => (b[name] === value ? b : { ...b, [name]: value })),
  };
}

type TBasicValues = {
  firstName: string;
  lastName: string;
  birthDate: string;
  country: string;
  documentType: TDocumentType;
  documentNumber: string;
  frontFileId: string | null;
  backFileId: string | null;
  selfieFileId: string | null;
};

function BasicForm({
  limits,
  rejected,
  onSubmitted,
}: {
  limits: { image: number; video: number };
  rejected: boolean;
  onSubmitted(info: TKycInfo): void;
}) {
  const { t, lang } = useI18n();
  const countries = useCountries();
  const countryId = useId();
  const typeId = useId();
  const [values, setValues] = useState<TBasicValues>({
    firstName: '',
    lastName: '',
    birthDate: '',
    country: '',
    documentType: 'passport',
    documentNumber: '',
    frontFileId: null,
    backFileId: null,
    selfieFileId: null,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sending, setSending] = useState(false);
  const files = useBusyFiles();
  const formRef = useRef<HTMLFormElement>(null);

  const edit = <K extends keyof TBasicValues>(field: K, value: TBasicValues[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors(({ [field]: _, form: __, ...rest }) => rest);
  };

  const check = (): Record<string, string> => {
    const next: Record<string, string> = {};
    if (!values.firstName.trim()) next.firstName = t('kyc.error.required');
    if (!values.lastName.trim()) next.lastName = t('kyc.error.required');
    if (birthDateProblem(values.birthDate)) next.birthDate = t('validation.birthDate');
    if (!/^[A-Z]{2}$/.test(values.country)) next.country = t('validation.countryFormat');
    if (!DOCUMENT_NUMBER.test(values.documentNumber.trim()))
      next.documentNumber = t('validation.documentNumber');
    if (!values.frontFileId) next.frontFileId = t('kyc.error.fileRequired');
    if (!values.selfieFileId) next.selfieFileId = t('kyc.error.fileRequired');
    return next;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending || files.any) return;
    const problems = check();
    setErrors(problems);
    if (Object.keys(problems).length) {
      formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    setSending(true);
    const answer = await callRoute(
      'certification',
      {
        firstName: values.firstName.trim(),
        lastName: values.lastName.trim(),
        birthDate: values.birthDate,
        country: values.country,
        documentType: values.documentType,
        documentNumber: values.documentNumber.trim(),
        frontFileId: values.frontFileId ?? '',
        backFileId: values.backFileId,
        selfieFileId: values.selfieFileId ?? '',
      },
      lang,
    );
    setSending(false);
    if (answer.succeed && answer.Data) {
      onSubmitted(answer.Data);
      return;
    }
    setErrors({ ...(answer.fields ?? {}), form: failureText(answer, t) });
  };

  const today = new Date();
  const latest = `${today.getFullYear() - 18}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;

  return (
    <Card
      title={t(rejected ? 'kyc.basic.formAgain' : 'kyc.basic.form')}
      text={t('kyc.basic.formText')}
      testId="kyc-basic-form"
    >
      <form ref={formRef} className="ky-form" onSubmit={(e) => void submit(e)} noValidate>
        <div className="ky-grid">
          <TextInput
            label={t('kyc.field.firstName')}
            value={values.firstName}
            onChange={(v) => edit('firstName', v)}
            error={errors.firstName}
            autoComplete="given-name"
            maxLength={64}
            testId="kyc-first-name"
          />
          <TextInput
            label={t('kyc.field.lastName')}
            value={values.lastName}
            onChange={(v) => edit('lastName', v)}
            error={errors.lastName}
            autoComplete="family-name"
            maxLength={64}
            testId="kyc-last-name"
          />
          <div className="field">
            <label className="field-label" htmlFor={`${countryId}-birth`}>
              {t('kyc.field.birthDate')}
            </label>
            <input
              id={`${countryId}-birth`}
              type="date"
              className="input"
              value={values.birthDate}
              max={latest}
              autoComplete="bday"
              aria-invalid={Boolean(errors.birthDate)}
              aria-describedby={`${countryId}-birth-error`}
              onChange={(e) => edit('birthDate', e.target.value)}
              data-testid="kyc-birth-date"
            />
            <span className="field-error" id={`${countryId}-birth-error`}>
              {errors.birthDate}
            </span>
          </div>
          <div className="field">
            <label className="field-label" htmlFor={countryId}>
              {t('kyc.field.country')}
            </label>
            <select
              id={countryId}
              className="input"
              value={values.country}
              autoComplete="country"
              aria-invalid={Boolean(errors.country)}
              aria-describedby={`${countryId}-error`}
              aria-busy={countries === null}
              onChange={(e) => edit('country', e.target.value)}
              data-testid="kyc-country"
            >
              <option value="">
                {countries === null ? t('kyc.field.countryLoading') : t('kyc.field.countryChoose')}
              </option>
              {(countries ?? []).map((c) => (
                <option key={c.code} value={c.code}>
                  {c.name}
                </option>
              ))}
            </select>
            <span className="field-error" id={`${countryId}-error`}>
              {errors.country}
            </span>
          </div>
        </div>

        <fieldset className="ky-fieldset">
          <legend className="field-label" id={typeId}>
            {t('kyc.field.documentType')}
          </legend>
          <div className="ky-segments">
            {DOCUMENT_TYPES.map((type) => (
              <label key={type} className="ky-segment" data-testid={`kyc-document-${type}`}>
                <input
                  type="radio"
                  name="document-type"
                  checked={values.documentType === type}
                  onChange={() => edit('documentType', type)}
                />
                <span>{t(`kyc.document.${type}`)}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <div className="ky-grid">
          <TextInput
            label={t('kyc.field.documentNumber')}
            value={values.documentNumber}
            onChange={(v) => edit('documentNumber', v)}
            error={errors.documentNumber}
            autoComplete="off"
            maxLength={32}
            testId="kyc-document-number"
          />
        </div>

        <div className="ky-files">
          <FileField
            label={t('kyc.field.front')}
            hint={t('kyc.file.imageHint', { mb: Math.round(limits.image / MB) })}
            allowed="image"
            limits={limits}
            required
            onChange={(id) => edit('frontFileId', id)}
            onBusy={files.set('front')}
            error={errors.frontFileId}
            testId="kyc-front"
          />
          <FileField
            label={t('kyc.field.back')}
            hint={t('kyc.file.backHint', { mb: Math.round(limits.image / MB) })}
            allowed="image"
            limits={limits}
            onChange={(id) => edit('backFileId', id)}
            onBusy={files.set('back')}
            error={errors.backFileId}
            testId="kyc-back"
          />
          <FileField
            label={t('kyc.field.selfie')}
            hint={t('kyc.file.selfieHint', {
              imageMb: Math.round(limits.image / MB),
              videoMb: Math.round(limits.video / MB),
            })}
            allowed="any"
            limits={limits}
            required
            capture="user"
            onChange={(id) => edit('selfieFileId', id)}
            onBusy={files.set('selfie')}
            error={errors.selfieFileId}
            testId="kyc-selfie"
          />
        </div>

        {errors.form && (
          <div className="alert alert-error" role="alert" data-testid="kyc-submit-error">
            {errors.form}
          </div>
        )}
        <div className="st-form-actions">
          <button
            type="submit"
            className="btn btn-primary"
            disabled={sending || files.any}
            data-testid="kyc-submit"
          >
            {sending ? <span className="spinner st-spinner-sm" /> : t('kyc.submit')}
          </button>
          {files.any && <span className="ky-hint">{t('kyc.waitUploads')}</span>}
        </div>
        <p className="ky-privacy">{t('kyc.privacy')}</p>
      </form>
    </Card>
  );
}

function SeniorForm({
  limits,
  onSubmitted,
}: {
  limits: { image: number; video: number };
  onSubmitted(info: TKycInfo): void;
}) {
  const { t, lang } = useI18n();
  const [values, setValues] = useState({
    addressLine: '',
    city: '',
    postalCode: '',
    proofFileId: null as string | null,
    videoFileId: null as string | null,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sending, setSending] = useState(false);
  const files = useBusyFiles();
  const edit = <K extends keyof typeof values>(field: K, value: (typeof values)[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors(({ [field]: _, form: __, ...rest }) => rest);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending || files.any) return;
    const next: Record<string, string> = {};
    if (values.addressLine.trim().length < 3) next.addressLine = t('kyc.error.address');
    if (!values.city.trim()) next.city = t('kyc.error.required');
    if (!values.proofFileId) next.proofFileId = t('kyc.error.fileRequired');
    if (!values.videoFileId) next.videoFileId = t('kyc.error.fileRequired');
    setErrors(next);
    if (Object.keys(next).length) return;
    setSending(true);
    const answer = await callRoute(
      'seniorauth',
      {
        addressLine: values.addressLine.trim(),
        city: values.city.trim(),
        postalCode: values.postalCode.trim(),
        proofFileId: values.proofFileId ?? '',
        videoFileId: values.videoFileId ?? '',
      },
      lang,
    );
    setSending(false);
    if (answer.succeed && answer.Data) {
      onSubmitted(answer.Data);
      return;
    }
    setErrors({ ...(answer.fields ?? {}), form: failureText(answer, t) });
  };

  return (
    <Card title={t('kyc.senior.form')} text={t('kyc.senior.formText')} testId="kyc-senior-form">
      <form className="ky-form" onSubmit={(e) => void submit(e)} noValidate>
        <div className="ky-grid">
          <TextInput
            label={t('kyc.field.address')}
            value={values.addressLine}
            onChange={(v) => edit('addressLine', v)}
            error={errors.addressLine}
            autoComplete="street-address"
            maxLength={200}
            testId="kyc-address"
          />
          <TextInput
            label={t('kyc.field.city')}
            value={values.city}
            onChange={(v) => edit('city', v)}
            error={errors.city}
            autoComplete="address-level2"
            maxLength={100}
            testId="kyc-city"
          />
          <TextInput
            label={t('kyc.field.postalCode')}
            value={values.postalCode}
            onChange={(v) => edit('postalCode', v)}
            error={errors.postalCode}
            autoComplete="postal-code"
            maxLength={20}
            testId="kyc-postal-code"
          />
        </div>
        <div className="ky-files">
          <FileField
            label={t('kyc.field.proof')}
            hint={t('kyc.file.proofHint', { mb: Math.round(limits.image / MB) })}
            allowed="image"
            limits={limits}
            required
            onChange={(id) => edit('proofFileId', id)}
            onBusy={files.set('proof')}
            error={errors.proofFileId}
            testId="kyc-proof"
          />
          <FileField
            label={t('kyc.field.video')}
            hint={t('kyc.file.videoHint', { mb: Math.round(limits.video / MB) })}
            allowed="video"
            limits={limits}
            required
            capture="user"
            onChange={(id) => edit('videoFileId', id)}
            onBusy={files.set('video')}
            error={errors.videoFileId}
            testId="kyc-video"
          />
        </div>
        {errors.form && (
          <div className="alert alert-error" role="alert" data-testid="kyc-senior-error">
            {errors.form}
          </div>
        )}
        <div className="st-form-actions">
          <button
            type="submit"
            className="btn btn-primary"
            disabled={sending || files.any}
            data-testid="kyc-senior-submit"
          >
            {sending ? <span className="spinner st-spinner-sm" /> : t('kyc.submit')}
          </button>
          {files.any && <span className="ky-hint">{t('kyc.waitUploads')}</span>}
        </div>
      </form>
    </Card>
  );
}

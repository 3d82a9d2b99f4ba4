import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../i18n';
import { Facts } from '../../kit/Drawer';
import { ReasonField as KitReasonField } from '../../kit/ReasonField';
import { REVIEW_REASON_MAX, reviewReasonProblem, type TFundingFormat } from './format';
import { Glyph } from './glyphs';

/** The rejection reason of a review: at most 20 characters after trimming, with a live counter. */
export function ReasonField({
  value,
  onChange,
  showProblem,
  label,
  testId,
}: {
  value: string;
  onChange: (value: string) => void;
  showProblem: boolean;
  label: string;
  testId: string;
}) {
  const { t } = useI18n();
  return (
    <KitReasonField
      value={value}
      onChange={onChange}
      showProblem={showProblem}
      problem={reviewReasonProblem(value)}
      max={REVIEW_REASON_MAX}
      label={label}
      words={{
        required: t('admin.funding.reason.required'),
        tooLong: t('admin.funding.reason.tooLong', { max: REVIEW_REASON_MAX }),
        hint: t('admin.funding.reason.hint'),
        counter: (count, max) => t('admin.funding.reason.counter', { count, max }),
      }}
      testIds={{ input: testId, problem: `${testId}-problem`, counter: `${testId}-counter` }}
    />
  );
}

/** Who the money belongs to: name, contact, country, KYC, registration, with a link to the customer. */
export function CustomerBrief({
  customer,
  format,
  onOnlyThis,
}: {
  customer: {
    userId: string;
    name: string;
    email: string | null;
    country: string | null;
    kyc: 'none' | 'pending' | 'approved' | 'rejected';
    createdAt: string;
  };
  format: TFundingFormat;
  onOnlyThis?: () => void;
}) {
  const { t } = useI18n();
  return (
    <div className="fu-customer" data-testid="customer-brief">
      <div className="fu-customer-head">
        <span className="fu-avatar" aria-hidden="true">
          {(customer.name || customer.email || '?').slice(0, 1).toUpperCase()}
        </span>
        <div className="fu-customer-name">
          <strong>{customer.name || customer.email}</strong>
          <span>{customer.email ?? '—'}</span>
        </div>
        <span className={`kit-pill ${KYC_TONES[customer.kyc]}`}>
          {t('admin.funding.kycState', { state: t(KYC_LABELS[customer.kyc]) })}
        </span>
      </div>
      <Facts
        items={[
          [t('admin.funding.field.customerNumber'), <code key="id">{customer.userId}</code>],
          [t('admin.funding.field.country'), format.country(customer.country) ?? '—'],
          [t('admin.funding.field.registered'), format.date(customer.createdAt)],
        ]}
      />
      <div className="kit-actions">
        <Link className="btn btn-secondary btn-sm" to={`/users/${encodeURIComponent(customer.userId)}`}>
          <Icon name="user" size={14} />
          {t('admin.funding.customer.open')}
        </Link>
        {onOnlyThis ? (
          <button type="button" className="btn btn-secondary btn-sm" onClick={onOnlyThis}>
            <Icon name="compass" size={14} />
            {t('admin.funding.customer.onlyThis')}
          </button>
        ) : null}
      </div>
    </div>
  );
}

/** The customers pages' words for the KYC states (the same words everywhere in the back office). */
export const KYC_LABELS = {
  none: 'admin.customers.kyc.none',
  pending: 'admin.customers.kyc.pending',
  approved: 'admin.customers.kyc.approved',
  rejected: 'admin.customers.kyc.rejected',
} as const;

export const KYC_TONES = {
  none: '',
  pending: 'kit-pill-warn',
  approved: 'kit-pill-up',
  rejected: 'kit-pill-down',
} as const;

/** A long identifier (an address, a hash, an IBAN) that wraps and can be copied. */
export function CopyText({ value, testId }: { value: string; testId?: string }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 1500);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <span className="fu-copy">
      <code data-testid={testId}>{value}</code>
      <button
        type="button"
        className="bo-iconbtn fu-copy-btn"
        aria-label={copied ? t('admin.funding.copied') : t('admin.funding.copy')}
        title={copied ? t('admin.funding.copied') : t('admin.funding.copy')}
        onClick={() => {
          void navigator.clipboard?.writeText(value).then(
            () => setCopied(true),
            () => undefined,
          );
        }}
      >
        {copied ? <Icon name="check" size={14} /> : <Glyph name="copy" size={14} />}
      </button>
    </span>
  );
}

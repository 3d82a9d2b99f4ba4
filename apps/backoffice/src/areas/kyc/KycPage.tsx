import { Route, Routes } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { useDocumentTitle, useI18n } from '../../i18n';
import { KycDetail } from './KycDetail';
import { KycQueue } from './KycQueue';
import './kyc.css';

/** KYC review (/admin/kyc): the queue of submissions, and one submission with its files (/admin/kyc/:id). */
export function KycPage() {
  return (
    <Routes>
      <Route index element={<QueuePage />} />
      <Route path=":id" element={<DetailPage />} />
    </Routes>
  );
}

function QueuePage() {
  const { t } = useI18n();
  const title = t('admin.menu.kyc');
  useDocumentTitle(title);
  return (
    <div className="bo-page ky-page">
      <PageHeader title={title} description={t('admin.module.kyc.description')} />
      <KycQueue />
    </div>
  );
}

function DetailPage() {
  return (
    <div className="bo-page ky-page">
      <KycDetail />
    </div>
  );
}

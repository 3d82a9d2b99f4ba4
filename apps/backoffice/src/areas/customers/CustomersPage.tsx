import { Route, Routes } from 'react-router';
import { ApprovalsPage } from './ApprovalsPage';
import { CustomerDetailPage } from './CustomerDetailPage';
import { CustomerSearchPage } from './CustomerSearchPage';
import './customers.css';

/** /admin/users: the customer search, a customer's page, and the balance adjustments to approve. */
export function CustomersPage() {
  return (
    <Routes>
      <Route index element={<CustomerSearchPage />} />
      <Route path="approvals" element={<ApprovalsPage />} />
      <Route path=":userId" element={<CustomerDetailPage />} />
    </Routes>
  );
}

/** The customers module's public face: the only file other modules and the HTTP layer import. */
export type { TCustomersPorts } from './customer-access';
export { setCustomerStatus, signOutCustomer } from './customer-access';
export { customerContact, customerDetail } from './customer-detail';
export { addNote } from './notes';
export { searchCustomers } from './search-customers';

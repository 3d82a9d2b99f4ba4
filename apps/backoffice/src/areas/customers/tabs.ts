import type { TRouteOutput } from '@broker/contracts/routes';

/** One customer as the detail page loads it. */
export type TCustomerDetail = TRouteOutput<'admincustomerdetail'>;
/** One of the customer's trading accounts. */
export type TAccount = TCustomerDetail['accounts'][number];

/** What a tab needs from the page: the data, a way to load it again, and a way to say what happened. */
export interface TTabProps {
  detail: TCustomerDetail;
  reload: () => void;
  notify: (message: string) => void;
}

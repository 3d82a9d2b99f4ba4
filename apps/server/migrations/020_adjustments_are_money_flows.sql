-- Issue 21, item 5: a staff balance adjustment is money paid in (credit) or out (debit), not trading
-- profit. The engine now keeps it in total_in (negative, as deposits) and total_out (positive, as
-- withdrawals); adjustments applied before this migration are moved there once, so every account's
-- spec 5 profit (total_equity - init_money + total_in + total_out) is its trading result.
update trading_accounts as t
   set total_in = t.total_in - a.credited,
       total_out = t.total_out + a.debited
  from (select account_id,
               coalesce(sum(amount) filter (where amount > 0), 0) as credited,
               coalesce(-sum(amount) filter (where amount < 0), 0) as debited
          from balance_adjustments
         where status = 'applied'
         group by account_id) as a
 where a.account_id = t.id;

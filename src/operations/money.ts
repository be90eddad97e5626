/** Money is stored in integer minor units and returned as a number with (at most) two decimals. */
export { moneyAmount as amount } from '../db/row-shape';

/**
 * An amount of money in a report or a budget sentence: dollars with their sign (`usdDigits`
 * decimals), any other currency as "2.00 EUR". The meter's own `formatCost` (contract/usageText)
 * uses the browser's currency format instead.
 */
export function amountText(amount: number, currency: string, usdDigits = 2): string {
  return currency === 'USD' ? `$${amount.toFixed(usdDigits)}` : `${amount.toFixed(2)} ${currency}`;
}

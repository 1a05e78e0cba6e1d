/**
 * Money in an organisation's currency (ISO 4217, default USD). Amounts travel as integers in the
 * currency's minor unit (cents for USD and EUR, yen for JPY, fils for KWD); prices are figured in
 * cents by the price formula and turned into the minor unit once (`centsToMinor`). Shown through
 * `Intl.NumberFormat`, which knows every currency's symbol and decimals.
 */

/** The currency when an organisation names none. */
export const DEFAULT_CURRENCY = 'USD';

const digitsCache = new Map<string, number>();

/** An ISO 4217 code Intl knows (`EUR`, `JPY`); upper case, three letters. */
export const isCurrencyCode = (code: string): boolean => {
  if (!/^[A-Z]{3}$/.test(code)) return false;
  const known = Intl.supportedValuesOf?.('currency');
  return known ? known.includes(code) : true;
};

/** Decimals of the currency's minor unit: 2 for USD and EUR, 0 for JPY, 3 for KWD. */
export const currencyMinorDigits = (currency: string): number => {
  const known = digitsCache.get(currency);
  if (known !== undefined) return known;
  let digits = 2;
  try {
    digits =
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits ?? 2;
  } catch {
    digits = 2;
  }
  digitsCache.set(currency, digits);
  return digits;
};

/** A price figured in cents (hundredths) as the currency's minor unit, rounded half up. */
export const centsToMinor = (cents: number, currency: string): number => {
  const digits = currencyMinorDigits(currency);
  if (digits === 2) return cents;
  if (digits > 2) return cents * 10 ** (digits - 2);
  return Math.round(cents / 10 ** (2 - digits));
};

/** An amount in the minor unit as a decimal string of the major unit: `12.50`, `1250`, `1.250`. */
export const minorToDecimal = (minor: number, currency: string): string => {
  const digits = currencyMinorDigits(currency);
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  if (digits === 0) return `${sign}${abs}`;
  const scale = 10 ** digits;
  return `${sign}${Math.floor(abs / scale)}.${String(abs % scale).padStart(digits, '0')}`;
};

/** `$12.50`, `€12.50`, `¥1,250` (the locale decides separators; English by default). */
export const formatMoney = (minor: number, currency: string, locale = 'en-US'): string => {
  const digits = currencyMinorDigits(currency);
  try {
    return new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(minor / 10 ** digits);
  } catch {
    return `${minorToDecimal(minor, currency)} ${currency}`;
  }
};

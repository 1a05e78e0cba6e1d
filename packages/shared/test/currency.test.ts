import { describe, expect, it } from 'vitest';
import {
  centsToMinor,
  currencyMinorDigits,
  formatMoney,
  isCurrencyCode,
  minorToDecimal,
} from '../src/rules/currency.ts';

describe('currency', () => {
  it('knows ISO 4217 codes, not anything of three letters', () => {
    expect(isCurrencyCode('USD')).toBe(true);
    expect(isCurrencyCode('EUR')).toBe(true);
    expect(isCurrencyCode('JPY')).toBe(true);
    expect(isCurrencyCode('usd')).toBe(false);
    expect(isCurrencyCode('ABC')).toBe(false);
    expect(isCurrencyCode('EURO')).toBe(false);
  });

  it('has the minor unit of each currency', () => {
    expect(currencyMinorDigits('USD')).toBe(2);
    expect(currencyMinorDigits('EUR')).toBe(2);
    expect(currencyMinorDigits('JPY')).toBe(0);
    expect(currencyMinorDigits('KWD')).toBe(3);
  });

  it('turns a price in cents into the minor unit (zero-decimal currencies rounded)', () => {
    expect(centsToMinor(1250, 'EUR')).toBe(1250);
    // A formula's ¥1,250 comes as 125,000 hundredths: 1,250 yen.
    expect(centsToMinor(125_000, 'JPY')).toBe(1250);
    expect(centsToMinor(125_050, 'JPY')).toBe(1251);
    expect(centsToMinor(1250, 'KWD')).toBe(12_500);
  });

  it('formats through Intl, with the currency’s own decimals', () => {
    expect(formatMoney(1250, 'USD')).toBe('$12.50');
    expect(formatMoney(5, 'USD')).toBe('$0.05');
    expect(formatMoney(0, 'EUR')).toBe('€0.00');
    expect(formatMoney(1250, 'EUR')).toBe('€12.50');
    expect(formatMoney(1250, 'JPY')).toBe('¥1,250');
    expect(formatMoney(1250, 'EUR', 'de-DE')).toBe('12,50\u00a0€');
    expect(minorToDecimal(1250, 'USD')).toBe('12.50');
    expect(minorToDecimal(1250, 'JPY')).toBe('1250');
    expect(minorToDecimal(-5, 'EUR')).toBe('-0.05');
  });
});

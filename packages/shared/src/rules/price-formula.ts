/**
 * Pricing-button formulas (albums spec §3): arithmetic over `{Final_Amount}` and
 * `{USER_TYPE}` with `+ - * / ( )`, unary minus, decimals, `min(…)` and `max(…)`. Parsed by our own
 * recursive-descent parser (never `eval` or `Function`) and evaluated in exact rational arithmetic
 * (bigint numerator / denominator), so `0.1 + 0.2` is exactly `0.3` and rounding to cents is
 * decided on the true value, not on a binary float.
 *
 * Formulas and unit prices are in dollars; the price is rounded to whole cents (half away from
 * zero) and every amount leaving this module is integer cents.
 */

export const PRICE_FORMULA_MAX_LENGTH = 500;
/** Brackets and unary minuses nested deeper than this are refused (no stack exhaustion). */
const MAX_DEPTH = 40;
/** Digits in one number literal. */
const MAX_LITERAL_DIGITS = 15;
/** The largest price a button may come to: $1,000,000.00. */
export const PRICE_MAX_CENTS = 100_000_000;

export const PRICE_FORMULA_VARIABLES = ['Final_Amount', 'USER_TYPE'] as const;
export type PriceFormulaVariable = (typeof PRICE_FORMULA_VARIABLES)[number];

export type PriceFormulaErrorKey =
  | 'price_formula_invalid'
  | 'price_formula_division_by_zero'
  | 'price_formula_negative'
  | 'price_formula_too_large';

// ---- exact rationals -----------------------------------------------------------------------------

interface Rational {
  /** Carries the sign. */
  n: bigint;
  /** Always > 0. */
  d: bigint;
}

const gcd = (a: bigint, b: bigint): bigint => {
  let x = a < 0n ? -a : a;
  let y = b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x === 0n ? 1n : x;
};

const rational = (n: bigint, d: bigint): Rational => {
  const sign = d < 0n ? -1n : 1n;
  const g = gcd(n, d < 0n ? -d : d);
  return { n: (sign * n) / g, d: (sign * d) / g };
};

const add = (a: Rational, b: Rational) => rational(a.n * b.d + b.n * a.d, a.d * b.d);
const sub = (a: Rational, b: Rational) => rational(a.n * b.d - b.n * a.d, a.d * b.d);
const mul = (a: Rational, b: Rational) => rational(a.n * b.n, a.d * b.d);
const compare = (a: Rational, b: Rational): number => {
  const diff = a.n * b.d - b.n * a.d;
  return diff < 0n ? -1 : diff > 0n ? 1 : 0;
};

/** A decimal literal (`12`, `0.75`, `.5`, `1e-3` from a JS number's text) as an exact rational. */
const fromDecimalText = (text: string): Rational => {
  const match = /^(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(text);
  if (!match) throw new Error(`not a decimal: ${text}`);
  const whole = match[1] ?? '';
  const fraction = match[2] ?? '';
  const exponent = Number(match[3] ?? '0') - fraction.length;
  const digits = BigInt(`${whole}${fraction}` || '0');
  return exponent >= 0
    ? rational(digits * 10n ** BigInt(exponent), 1n)
    : rational(digits, 10n ** BigInt(-exponent));
};

/** A finite JS number (a unit price, a multiplier) exactly as it reads in decimal. */
const fromNumber = (value: number): Rational => {
  if (!Number.isFinite(value)) throw new Error('not a finite number');
  const negative = value < 0;
  const r = fromDecimalText(String(Math.abs(value)));
  return negative ? rational(-r.n, r.d) : r;
};

/** Whole cents, half away from zero. */
const toCents = (value: Rational): bigint => {
  const scaled = value.n * 100n;
  const magnitude = scaled < 0n ? -scaled : scaled;
  const rounded = (2n * magnitude + value.d) / (2n * value.d);
  return scaled < 0n ? -rounded : rounded;
};

// ---- the syntax tree -----------------------------------------------------------------------------

export type PriceFormulaNode =
  | { kind: 'number'; value: Rational }
  | { kind: 'variable'; name: PriceFormulaVariable }
  | { kind: 'negate'; operand: PriceFormulaNode }
  | { kind: 'binary'; op: '+' | '-' | '*' | '/'; left: PriceFormulaNode; right: PriceFormulaNode }
  | { kind: 'call'; fn: 'min' | 'max'; args: PriceFormulaNode[] };

export type ParseResult =
  | { ok: true; formula: PriceFormulaNode }
  | { ok: false; key: 'price_formula_invalid'; position: number };

class FormulaSyntaxError extends Error {
  constructor(readonly position: number) {
    super(`formula does not parse at ${position}`);
  }
}

/**
 * Parses a formula. Grammar:
 *   expr    := term (('+' | '-') term)*
 *   term    := unary (('*' | '/') unary)*
 *   unary   := '-' unary | '+' unary | primary
 *   primary := number | '{' variable '}' | ('min' | 'max') '(' expr (',' expr)* ')' | '(' expr ')'
 * White space is free; function names are case-insensitive, variable names exact.
 */
export const parsePriceFormula = (source: string): ParseResult => {
  if (source.length > PRICE_FORMULA_MAX_LENGTH || !source.trim())
    return { ok: false, key: 'price_formula_invalid', position: 0 };
  let pos = 0;
  let depth = 0;

  const skipSpace = () => {
    while (pos < source.length && /\s/.test(source[pos]!)) pos += 1;
  };
  const peek = (): string | undefined => {
    skipSpace();
    return source[pos];
  };
  const expect = (char: string) => {
    if (peek() !== char) throw new FormulaSyntaxError(pos);
    pos += 1;
  };
  const nested = <T>(parse: () => T): T => {
    depth += 1;
    if (depth > MAX_DEPTH) throw new FormulaSyntaxError(pos);
    const result = parse();
    depth -= 1;
    return result;
  };

  const expr = (): PriceFormulaNode => {
    let left = term();
    for (let c = peek(); c === '+' || c === '-'; c = peek()) {
      pos += 1;
      left = { kind: 'binary', op: c, left, right: term() };
    }
    return left;
  };

  const term = (): PriceFormulaNode => {
    let left = unary();
    for (let c = peek(); c === '*' || c === '/'; c = peek()) {
      pos += 1;
      left = { kind: 'binary', op: c, left, right: unary() };
    }
    return left;
  };

  const unary = (): PriceFormulaNode => {
    const c = peek();
    if (c === '-' || c === '+') {
      pos += 1;
      const operand = nested(unary);
      return c === '-' ? { kind: 'negate', operand } : operand;
    }
    return primary();
  };

  const primary = (): PriceFormulaNode => {
    const c = peek();
    const start = pos;
    if (c === undefined) throw new FormulaSyntaxError(pos);
    if (c === '(') {
      pos += 1;
      const inner = nested(expr);
      expect(')');
      return inner;
    }
    if (c === '{') {
      const end = source.indexOf('}', pos);
      const name = end < 0 ? '' : source.slice(pos + 1, end);
      if (!(PRICE_FORMULA_VARIABLES as readonly string[]).includes(name))
        throw new FormulaSyntaxError(start);
      pos = end + 1;
      return { kind: 'variable', name: name as PriceFormulaVariable };
    }
    if (/[0-9.]/.test(c)) {
      const match = /^(\d+(?:\.\d*)?|\.\d+)/.exec(source.slice(pos));
      if (!match) throw new FormulaSyntaxError(start);
      const text = match[0];
      if (text.replace('.', '').length > MAX_LITERAL_DIGITS) throw new FormulaSyntaxError(start);
      pos += text.length;
      // `1.2.3` or `2(3)` is not a number followed by something we accept.
      if (source[pos] === '.') throw new FormulaSyntaxError(pos);
      return { kind: 'number', value: fromDecimalText(text) };
    }
    const word = /^[A-Za-z_]+/.exec(source.slice(pos))?.[0];
    if (word) {
      const fn = word.toLowerCase();
      if (fn !== 'min' && fn !== 'max') throw new FormulaSyntaxError(start);
      pos += word.length;
      expect('(');
      const args = [nested(expr)];
      while (peek() === ',') {
        pos += 1;
        args.push(nested(expr));
      }
      expect(')');
      return { kind: 'call', fn, args };
    }
    throw new FormulaSyntaxError(start);
  };

  try {
    const formula = expr();
    if (peek() !== undefined) throw new FormulaSyntaxError(pos);
    return { ok: true, formula };
  } catch (error) {
    if (error instanceof FormulaSyntaxError)
      return { ok: false, key: 'price_formula_invalid', position: error.position };
    throw error;
  }
};

// ---- evaluation ----------------------------------------------------------------------------------

export interface PriceFormulaVariables {
  /** Dollars: unit price × photos chosen × event multiplier. */
  Final_Amount: number;
  /** 1 regular, 2 VIP. */
  USER_TYPE: 1 | 2;
}

export type PriceResult =
  { ok: true; cents: number } | { ok: false; key: PriceFormulaErrorKey; position?: number };

class DivisionByZero extends Error {}

const evaluate = (
  node: PriceFormulaNode,
  vars: Record<PriceFormulaVariable, Rational>,
): Rational => {
  switch (node.kind) {
    case 'number':
      return node.value;
    case 'variable':
      return vars[node.name];
    case 'negate': {
      const v = evaluate(node.operand, vars);
      return { n: -v.n, d: v.d };
    }
    case 'binary': {
      const l = evaluate(node.left, vars);
      const r = evaluate(node.right, vars);
      switch (node.op) {
        case '+':
          return add(l, r);
        case '-':
          return sub(l, r);
        case '*':
          return mul(l, r);
        case '/':
          if (r.n === 0n) throw new DivisionByZero();
          return rational(l.n * r.d, l.d * r.n);
      }
      break;
    }
    case 'call': {
      const values = node.args.map((a) => evaluate(a, vars));
      const pick = node.fn === 'min' ? -1 : 1;
      return values.reduce((best, v) => (compare(v, best) === pick ? v : best));
    }
  }
  throw new Error('unreachable');
};

const evaluateExact = (
  formula: PriceFormulaNode,
  finalAmountValue: Rational,
  userType: 1 | 2,
): PriceResult => {
  let value: Rational;
  try {
    value = evaluate(formula, {
      Final_Amount: finalAmountValue,
      USER_TYPE: rational(BigInt(userType), 1n),
    });
  } catch (error) {
    if (error instanceof DivisionByZero)
      return { ok: false, key: 'price_formula_division_by_zero' };
    throw error;
  }
  const cents = toCents(value);
  if (cents < 0n) return { ok: false, key: 'price_formula_negative' };
  if (cents > BigInt(PRICE_MAX_CENTS)) return { ok: false, key: 'price_formula_too_large' };
  return { ok: true, cents: Number(cents) };
};

/** The price in whole cents of a parsed formula, or the refusal. */
export const evaluatePriceFormula = (
  formula: PriceFormulaNode,
  variables: PriceFormulaVariables,
): PriceResult => evaluateExact(formula, fromNumber(variables.Final_Amount), variables.USER_TYPE);

/** Parses and evaluates in one step. */
export const priceFormulaCents = (
  source: string,
  variables: PriceFormulaVariables,
): PriceResult => {
  const parsed = parsePriceFormula(source);
  if (!parsed.ok) return parsed;
  return evaluatePriceFormula(parsed.formula, variables);
};

export interface ButtonPriceInput {
  priceFormula: string;
  /** Dollars per photo; null counts as 0. */
  unitPrice: number | null;
  photoCount: number;
  /** The event multiplier (opts.eventMultiplier). */
  multiplier: number;
  /**
   * The print multiplier (opts.printMultiplier) for a button that sells prints; 1 (the default)
   * for one that sells digitals only.
   */
  printMultiplier?: number;
  userType: 1 | 2;
}

/**
 * The sale price of a button in cents for a guest choosing `photoCount` photos.
 * `{Final_Amount}` = unit price × photos × multiplier (× print multiplier for a button selling
 * prints), exact (`19.99 × 3 × 1.1` is 65.967).
 */
export const buttonPriceCents = (input: ButtonPriceInput): PriceResult => {
  const parsed = parsePriceFormula(input.priceFormula);
  if (!parsed.ok) return parsed;
  if (
    !Number.isFinite(input.unitPrice ?? 0) ||
    !Number.isFinite(input.multiplier) ||
    !Number.isFinite(input.printMultiplier ?? 1) ||
    !Number.isInteger(input.photoCount)
  )
    return { ok: false, key: 'price_formula_invalid' };
  const amount = mul(
    mul(
      mul(fromNumber(input.unitPrice ?? 0), fromNumber(input.photoCount)),
      fromNumber(input.multiplier),
    ),
    fromNumber(input.printMultiplier ?? 1),
  );
  return evaluateExact(parsed.formula, amount, input.userType);
};

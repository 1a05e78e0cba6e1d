import { S3_SERVICE, SIGV4_ALGORITHM, signPolicy, signaturesEqual } from './post-policy.ts';
import { S3Error } from './s3-error.ts';

/**
 * Checks a browser POST upload the way Amazon S3 does, before a byte of the file is kept:
 * signature over the policy, policy expiry, every condition, and no form field the policy does
 * not name. The size condition is returned and enforced while the file streams.
 */

export interface PostFormContext {
  bucket: string;
  region: string;
  now: Date;
  /** The secret for an access key id, or undefined when the id is unknown. */
  secretFor(accessKeyId: string): string | undefined;
}

export interface AcceptedPost {
  /** The `key` field, before `${filename}` substitution. */
  key: string;
  /** The `Content-Type` field, when given. */
  contentType: string | undefined;
  minBytes: number;
  maxBytes: number;
  /** 200, 201 or 204 (S3 answers 204 for anything else). */
  successStatus: 200 | 201 | 204;
}

/** Fields S3 never requires a condition for. */
const EXEMPT = new Set(['x-amz-signature', 'file', 'policy']);

const conditionFailed = (text: string): S3Error =>
  new S3Error('AccessDenied', `Invalid according to Policy: Policy Condition failed: ${text}`);

const invalidPolicy = (why: string): S3Error =>
  new S3Error('InvalidPolicyDocument', `Invalid Policy: ${why}`);

const missingField = (name: string): S3Error =>
  new S3Error(
    'InvalidArgument',
    `Bucket POST must contain a field named '${name}'.  If it is specified, please check the order of the fields.`,
    { ArgumentName: name },
  );

/** S3 quotes a failed condition as `["eq", "$key", "a.jpg"]`. */
const quote = (parts: unknown[]): string => `[${parts.map((p) => JSON.stringify(p)).join(', ')}]`;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `fields` are the form fields that came before the file, names as sent. Names compare
 * case-insensitively (S3 accepts `X-Amz-Signature` and `x-amz-signature` alike; the AWS SDK
 * sends the former), values exactly.
 */
export const verifyPostForm = (
  fields: ReadonlyArray<readonly [string, string]>,
  context: PostFormContext,
): AcceptedPost => {
  const form = new Map<string, string>();
  for (const [name, value] of fields) {
    const lower = name.toLowerCase();
    // Two values for one name would let the policy check one and the store use the other.
    if (form.has(lower)) {
      throw new S3Error('InvalidArgument', `Field ${name} appears more than once.`, {
        ArgumentName: name,
      });
    }
    form.set(lower, value);
  }

  const key = form.get('key');
  if (key === undefined) throw missingField('key');
  const policyBase64 = form.get('policy');
  // No policy is an anonymous upload: only a public-write bucket takes those, and ours is not.
  if (policyBase64 === undefined) throw new S3Error('AccessDenied', 'Access Denied');

  const algorithm = form.get('x-amz-algorithm');
  if (algorithm === undefined) throw missingField('x-amz-algorithm');
  if (algorithm !== SIGV4_ALGORITHM) {
    throw new S3Error('InvalidArgument', `Only ${SIGV4_ALGORITHM} is supported.`, {
      ArgumentName: 'x-amz-algorithm',
      ArgumentValue: algorithm,
    });
  }
  const credential = form.get('x-amz-credential');
  if (credential === undefined) throw missingField('x-amz-credential');
  const amzDate = form.get('x-amz-date');
  if (amzDate === undefined) throw missingField('x-amz-date');
  const signature = form.get('x-amz-signature');
  if (signature === undefined) throw missingField('x-amz-signature');

  const scope = credential.split('/');
  const [accessKeyId, shortDate, region, service, terminal] = scope;
  if (
    scope.length !== 5 ||
    !accessKeyId ||
    !shortDate ||
    !/^\d{8}$/.test(shortDate) ||
    service !== S3_SERVICE ||
    terminal !== 'aws4_request' ||
    !/^\d{8}T\d{6}Z$/.test(amzDate) ||
    !amzDate.startsWith(shortDate)
  ) {
    throw new S3Error('InvalidArgument', 'Invalid credential or date.', {
      ArgumentName: 'x-amz-credential',
      ArgumentValue: credential,
    });
  }
  if (region !== context.region) {
    throw new S3Error(
      'InvalidArgument',
      `The authorization header is malformed; the region '${region}' is wrong; expecting '${context.region}'`,
    );
  }
  const secret = context.secretFor(accessKeyId);
  if (secret === undefined) {
    throw new S3Error(
      'InvalidAccessKeyId',
      'The AWS Access Key Id you provided does not exist in our records.',
      { AWSAccessKeyId: accessKeyId },
    );
  }
  // Nothing in the policy is trusted before the signature over it checks out.
  if (!signaturesEqual(signPolicy(secret, shortDate, region, policyBase64), signature)) {
    throw new S3Error(
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    );
  }

  let policy: unknown;
  try {
    policy = JSON.parse(Buffer.from(policyBase64, 'base64').toString('utf8'));
  } catch {
    throw invalidPolicy('Invalid JSON.');
  }
  if (!isRecord(policy)) throw invalidPolicy('Invalid JSON.');
  const { expiration, conditions } = policy;
  if (typeof expiration !== 'string') throw invalidPolicy('Policy missing expiration.');
  const expiresAt = Date.parse(expiration);
  if (Number.isNaN(expiresAt)) throw invalidPolicy(`Invalid 'expiration' value: '${expiration}'`);
  if (!Array.isArray(conditions)) throw invalidPolicy('Policy missing conditions.');
  if (context.now.getTime() >= expiresAt) {
    throw new S3Error('AccessDenied', 'Invalid according to Policy: Policy expired.');
  }

  // The bucket condition is about where the POST went, not about a form field.
  const valueOf = (name: string): string =>
    name === 'bucket' ? context.bucket : (form.get(name) ?? '');
  const covered = new Set<string>();
  let minBytes = 0;
  let maxBytes = Number.POSITIVE_INFINITY;

  for (const condition of conditions as unknown[]) {
    if (isRecord(condition)) {
      const entries = Object.entries(condition);
      const [entry] = entries;
      if (entries.length !== 1 || !entry || typeof entry[1] !== 'string') {
        throw invalidPolicy('Each condition object must have exactly one string value.');
      }
      const [name, expected] = entry;
      const lower = name.toLowerCase();
      covered.add(lower);
      if (valueOf(lower) !== expected) throw conditionFailed(quote(['eq', `$${name}`, expected]));
      continue;
    }
    if (!Array.isArray(condition) || condition.length !== 3) {
      throw invalidPolicy('Invalid condition.');
    }
    const [op, subject, operand] = condition as [unknown, unknown, unknown];
    if (op === 'content-length-range') {
      if (
        typeof subject !== 'number' ||
        typeof operand !== 'number' ||
        !Number.isInteger(subject) ||
        !Number.isInteger(operand) ||
        subject < 0 ||
        operand < subject
      ) {
        throw invalidPolicy('Invalid content-length-range.');
      }
      minBytes = Math.max(minBytes, subject);
      maxBytes = Math.min(maxBytes, operand);
      continue;
    }
    if (
      (op !== 'eq' && op !== 'starts-with') ||
      typeof subject !== 'string' ||
      !subject.startsWith('$') ||
      typeof operand !== 'string'
    ) {
      throw invalidPolicy(`Invalid condition: ${JSON.stringify(condition)}`);
    }
    const lower = subject.slice(1).toLowerCase();
    covered.add(lower);
    const actual = valueOf(lower);
    const ok =
      op === 'eq'
        ? actual === operand
        : lower === 'content-type'
          ? // S3: for Content-Type, every value of a comma-separated list must match.
            actual.split(',').every((part) => part.trim().startsWith(operand))
          : actual.startsWith(operand);
    if (!ok) throw conditionFailed(quote([op, subject, operand]));
  }

  const extra = [...form.keys()].filter(
    (name) => !EXEMPT.has(name) && !name.startsWith('x-ignore-') && !covered.has(name),
  );
  if (extra.length > 0) {
    throw new S3Error(
      'AccessDenied',
      `Invalid according to Policy: Extra input fields: ${extra.join(', ')}`,
    );
  }
  if (form.has('bucket') && form.get('bucket') !== context.bucket) {
    throw new S3Error('InvalidArgument', 'The bucket field does not name this bucket.');
  }

  const status = form.get('success_action_status');
  return {
    key,
    contentType: form.get('content-type'),
    minBytes,
    maxBytes,
    successStatus: status === '200' ? 200 : status === '201' ? 201 : 204,
  };
};

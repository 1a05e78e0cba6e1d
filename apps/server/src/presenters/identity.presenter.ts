import type { Organisation, Role, User } from '@flashbulb/shared';
import type { ApiKeyRow } from '../repositories/identity/api-key.repository.ts';
import type { OrganisationRow } from '../repositories/identity/organisation.repository.ts';
import type { UserWithOrganisation } from '../repositories/identity/user.repository.ts';

/** An organisation as the console lists it. */
export const organisationForCaller = (row: OrganisationRow): Organisation => ({
  id: row.id,
  name: row.name,
  currency: row.currency,
  created_date: row.createdAt.toISOString(),
});

/** A user as the console's user pages and `me` show them (never a secret). */
export const userForOperator = (user: UserWithOrganisation, mfaExempt: boolean): User => ({
  id: user.id,
  email: user.email,
  role: user.role as Role,
  organisation_id: user.organisationId,
  organisation_name: user.organisationName,
  mfa_enabled: user.totpEnabled,
  mfa_exempt: mfaExempt,
  status: user.status === 'FORCE_CHANGE_PASSWORD' ? 'FORCE_CHANGE_PASSWORD' : 'CONFIRMED',
  disabled: user.disabledAt !== null,
  created_date: user.createdAt.toISOString(),
});

/** An API key as its list shows it: name and prefix, never the secret. */
export const apiKeyForOwner = (row: ApiKeyRow) => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  created_date: row.createdAt.toISOString(),
  last_used_date: row.lastUsedAt?.toISOString() ?? null,
});

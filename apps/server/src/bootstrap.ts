import { emailSchema, newPasswordSchema } from '@flashbulb/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './config.ts';
import type { Container } from './container.ts';
import { AppError } from './lib/app-error.ts';

/** FLASHBULB_ADMIN_EMAIL + FLASHBULB_ADMIN_PASSWORD create the first super user when there is none. */
export const bootstrapAdmin = async (
  container: Container,
  config: AppConfig,
  log: FastifyBaseLogger,
): Promise<void> => {
  if (!config.adminEmail || !config.adminPassword) {
    if (await container.services.firstAdmin.needsFirstAdmin()) {
      log.warn(
        'no user yet: the first visit shows "create the first administrator"; from another ' +
          `machine it asks for the set-up token ${container.services.firstAdmin.setupToken()}`,
      );
    }
    return;
  }
  const email = emailSchema.safeParse(config.adminEmail);
  const password = newPasswordSchema.safeParse(config.adminPassword);
  if (!email.success || !password.success) {
    throw new Error(
      'FLASHBULB_ADMIN_EMAIL must be an e-mail address and FLASHBULB_ADMIN_PASSWORD at least 8 characters, not a common password',
    );
  }
  try {
    await container.services.firstAdmin.createFirstAdmin(
      { email: email.data, password: password.data },
      { local: true },
    );
    log.info({ email: email.data }, 'first administrator created from the environment');
  } catch (error) {
    if (!(error instanceof AppError && error.key === 'setup_already_done')) throw error;
  }
};

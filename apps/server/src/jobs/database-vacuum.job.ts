import { databaseVacuum } from './catalogue.ts';
import { defineJob } from './job-definition.ts';

export type DatabaseVacuumDeps = { maintenance: { vacuumIfNeeded(): Promise<unknown> } };

export const databaseVacuumJob = defineJob(databaseVacuum, (_payload, deps: DatabaseVacuumDeps) =>
  deps.maintenance.vacuumIfNeeded(),
);

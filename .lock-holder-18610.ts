
import { openDatabase } from './apps/server/src/db/database.ts';
const database = await openDatabase({ engine: 'pglite', dataDir: process.argv[2] });
await database.executeSql("insert into organisations (name) values ('From the holder')");
process.stdout.write('holding\n');
setInterval(() => undefined, 60_000);

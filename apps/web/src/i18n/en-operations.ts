/** English texts of the console Operations page (namespace `translation`, key `operations`). */
export const enOperations = {
  title: 'Operations',
  backup: {
    title: 'Backup',
    hint: 'A consistent snapshot of the database and every stored object with its SHA-256, written on the server into <data dir>/backups. Copy it off the machine; restore with `npm run cli -- backup restore` while the server is stopped.',
    keep: 'Keep the newest',
    run: 'Back up now',
    done: 'Backup written to {{path}}: {{rows}} rows, {{objects}} objects, {{size}}, in {{seconds}} s.',
    removed: 'Removed older backups: {{list}}',
    loadError: 'The backups could not be listed.',
    none: 'No backup in {{folder}} yet.',
    tableLabel: 'Backups',
    columns: {
      created: 'Made',
      size: 'Size',
      duration: 'Took',
      contents: 'Contents',
      path: 'Folder on the server',
    },
    contents: '{{rows}} rows, {{objects}} objects',
  },
  integrity: {
    title: 'Storage integrity',
    hint: 'Compares the objects the database names (originals with their SHA-256, derivatives, selfies, profile photos, print sheets) with what storage holds. It also runs every night.',
    run: 'Run the check',
    summary:
      '{{objects}} objects in storage, {{named}} named by rows, {{verified}} checksums verified — missing: {{missing}}, untracked: {{untracked}}, checksum mismatches: {{mismatch}}.',
    clean: 'No problem found.',
    tableLabel: 'Integrity problems',
    columns: { problem: 'Problem', key: 'Object', owner: 'Named by', actions: 'Actions' },
    problems: {
      missing: 'Missing',
      untracked: 'Untracked',
      checksum_mismatch: 'Checksum mismatch',
    },
    actions: {
      're-derive': 'Re-derive',
      're-attach': 'Re-attach',
      delete: 'Delete',
    },
    noAction: 'Restore it from a backup',
  },
};

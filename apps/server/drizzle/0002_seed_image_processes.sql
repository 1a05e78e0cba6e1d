-- Organisations created before image processes existed get the same defaults a new organisation
-- gets (DEFAULT_IMAGE_PROCESSES in src/services/image-process.service.ts).
INSERT INTO "image_processes" ("organisation_id", "name", "kind", "auto_print", "position")
SELECT o."id", d."name", d."kind", d."auto_print", d."position"
FROM "organisations" o
CROSS JOIN (VALUES
  ('Original', 'original', false, 0),
  ('Resize 2000', 'resize', false, 1),
  ('Watermark', 'watermark', false, 2),
  ('Print 4x6', 'print', true, 3)
) AS d("name", "kind", "auto_print", "position")
WHERE NOT EXISTS (SELECT 1 FROM "image_processes" p WHERE p."organisation_id" = o."id");

import sharp from 'sharp';

/**
 * Mean absolute pixel difference of two pictures in each cell of a 3×3 grid, `b` resized to the
 * size of `a`. `step` samples every n-th pixel each way: an app test comparing 2000 px previews
 * needs no more to tell a mark from none.
 */
export const cellDifferences = async (a: Buffer, b: Buffer, step = 1): Promise<number[]> => {
  const { width, height } = await sharp(a).metadata();
  const raw = (input: Buffer) =>
    sharp(input).resize(width, height, { fit: 'fill' }).removeAlpha().raw().toBuffer();
  const [pa, pb] = [await raw(a), await raw(b)];
  const cells: number[] = [];
  for (let cy = 0; cy < 3; cy += 1)
    for (let cx = 0; cx < 3; cx += 1) {
      let sum = 0;
      let n = 0;
      for (
        let y = Math.floor((cy * height) / 3);
        y < Math.floor(((cy + 1) * height) / 3);
        y += step
      )
        for (
          let x = Math.floor((cx * width) / 3);
          x < Math.floor(((cx + 1) * width) / 3);
          x += step
        )
          for (let c = 0; c < 3; c += 1) {
            const i = (y * width + x) * 3 + c;
            sum += Math.abs(pa[i]! - pb[i]!);
            n += 1;
          }
      cells.push(sum / n);
    }
  return cells;
};

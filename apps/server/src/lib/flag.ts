/** A smallint 0/1 column as the API's `0 | 1` (anything but 1 reads as 0). */
export const asFlag = (value: number): 0 | 1 => (value === 1 ? 1 : 0);

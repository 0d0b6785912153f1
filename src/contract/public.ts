import { z } from 'zod';

/** A decimal number as the page writes it (`toFixed`): no hex, exponent, spaces or empty value read as 0. */
const decimal = (min: number, max: number) =>
  z
    .string()
    .regex(/^-?\d{1,3}(\.\d{1,15})?$/)
    .transform(Number)
    .pipe(z.number().min(min).max(max));

/** GET /api/geocode.php: a position from the browser's geolocation. */
export const GeocodeQuery = z.object({
  lat: decimal(-90, 90),
  lon: decimal(-180, 180),
});

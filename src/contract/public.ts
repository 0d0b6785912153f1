import { z } from 'zod';

/** GET /api/geocode.php: a position from the browser's geolocation. */
export const GeocodeQuery = z.object({
  lat: z.coerce.number().min(-90).max(90),
  lon: z.coerce.number().min(-180).max(180),
});

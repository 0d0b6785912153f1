import type { ProfileCardData } from '../../contract/likes.ts';

/** A profile's round thumbnail, or its initial on the brand's colours. Decorative: the name is beside it. */
export function Avatar({ profile, size }: { profile: Pick<ProfileCardData, 'name' | 'main_image'>; size: string }) {
  const image = profile.main_image?.thumb_filename || profile.main_image?.filename;
  return image ? (
    <img src={image} alt="" className={`${size} shrink-0 rounded-full object-cover`} loading="lazy" decoding="async" />
  ) : (
    <span aria-hidden="true" className={`${size} grid shrink-0 place-items-center rounded-full bg-gradient-to-br from-primary/70 to-secondary/80 font-bold text-white`}>
      {profile.name.slice(0, 1).toUpperCase()}
    </span>
  );
}

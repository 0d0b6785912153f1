/**
 * The look of a form's fields and labels, shared by every form. A module of its own (so the search's
 * filters take the classes without the form components), and .tsx so UnoCSS reads its classes.
 */
export const inputClass =
  'block w-full rounded-xl border border-gray-300 bg-white px-4 py-3 text-base text-[#1d1a22] shadow-sm transition-colors placeholder:text-gray-400 hover:border-gray-400 focus:border-primary focus-visible:outline-3 focus-visible:outline-offset-1 focus-visible:outline-primary aria-[invalid=true]:border-danger';
export const labelClass = 'mb-1.5 block text-sm font-semibold text-gray-800';

/** Rails' blank?: absent, or nothing but whitespace (required_attributes! refused such values). */
export const blank = (value: string | null | undefined): value is null | undefined | '' =>
  value == null || /^\s*$/.test(value);

/** Rails' present?: what attributes_for_keys kept; a blank value counts as not sent. */
export const present = (value: string | null | undefined): value is string => !blank(value);

/** What the profile verbs' files share: the help of the arguments and flags several of them declare. */

/** `<name>` of a verb that needs one. */
export const NAME_HELP = 'profile name';

/** `[name]` of a verb that falls back to the profile in use. */
export const NAME_OR_CURRENT_HELP = 'profile name (default: --profile, LOANCTL_PROFILE, or the current one)';

export const PRODUCT_ID_HELP = 'default product id for loan commands';

export const ORG_ID_HELP = 'your organisation id (used by business information)';

// Our design: the seeds name a support mail and an info mail without giving the addresses.
export const supportEmail = "support@isopter.example";
export const infoEmail = "info@isopter.example";

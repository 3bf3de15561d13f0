package dev.quaestor.console;

import io.quarkus.qute.TemplateData;

/**
 * What every console page shows around its content: its title, who is signed in and how, whether the audit pages
 * and the cases are in the menu (a case administrator sees the cases alone), the CSRF token the page's forms
 * carry, and what the last integrity check found (pages of records warn with it).
 */
@TemplateData
public record Chrome(String title, String who, String auth, boolean auditor, boolean cases, String csrf, IntegrityNotice integrity) {
}

package dev.quaestor.console;

import io.quarkus.qute.TemplateData;

/**
 * What every console page shows around its content: its title, who is signed in and how, whether the audit pages
 * and the cases are in the menu (a case administrator sees the cases alone), and the CSRF token the page's forms
 * carry.
 */
@TemplateData
public record Chrome(String title, String who, String auth, boolean auditor, boolean cases, String csrf) {
}

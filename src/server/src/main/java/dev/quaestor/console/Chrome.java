package dev.quaestor.console;

import io.quarkus.qute.TemplateData;

/**
 * What every console page shows around its content: its title, who is signed in and how, whether the audit pages
 * are in the menu, and the CSRF token the page's forms carry.
 */
@TemplateData
public record Chrome(String title, String who, String auth, boolean auditor, String csrf) {
}

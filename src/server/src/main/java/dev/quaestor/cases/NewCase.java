package dev.quaestor.cases;

import java.util.List;

/** A case as it is opened: its title, what it is about, and the members beside the person who opens it. */
public record NewCase(String title, String description, List<String> members) {
}

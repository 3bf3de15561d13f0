package dev.quaestor.policy;

public enum Effect {
    ALLOW, DENY
}

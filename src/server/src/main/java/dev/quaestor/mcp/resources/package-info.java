/**
 * The resource methods both protocol eras serve, answered in each era's shape.
 */
package dev.quaestor.mcp.resources;

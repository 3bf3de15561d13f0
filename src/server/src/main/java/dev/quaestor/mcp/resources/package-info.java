/**
 * The resource methods both protocol generations serve, answered in each generation's shape.
 */
package dev.quaestor.mcp.resources;

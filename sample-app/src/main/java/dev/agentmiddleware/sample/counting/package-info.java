/**
 * A custom middleware, written the way a user of the starter writes their own.
 */
@NullMarked
package dev.agentmiddleware.sample.counting;

import org.jspecify.annotations.NullMarked;

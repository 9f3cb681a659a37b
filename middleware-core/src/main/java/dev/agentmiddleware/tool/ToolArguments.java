package dev.agentmiddleware.tool;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * The bound arguments of one call: an immutable map from parameter name to value, in
 * declaration order, that may hold {@code null} values. The parameter names are shared by
 * every call of a tool, so a call allocates only its values; {@link ToolInvocation}
 * adopts such a map without copying it.
 *
 * <p>
 * Equality and hash code follow the {@link Map} contract, so two calls with the same
 * arguments are equal keys however their arguments were ordered in the JSON they came
 * from. <pre>{@code
 * ToolArguments.Names names = ToolArguments.names("city", "days");       // once per tool
 * Map<String, Object> arguments = names.with(new Object[] { "Lisbon", 3 }); // once per call
 * }</pre>
 */
public final class ToolArguments extends AbstractMap<String, @Nullable Object> {

	private static final ToolArguments EMPTY = new ToolArguments(new Names(new String[0]), new Object[0]);

	private final Names names;

	private final @Nullable Object[] values;

	private ToolArguments(Names names, @Nullable Object[] values) {
		this.names = names;
		this.values = values;
	}

	/**
	 * The parameter names of a tool, for {@link Names#with}.
	 * @param names the parameter names, in declaration order; distinct
	 * @return the names
	 */
	public static Names names(String... names) {
		return new Names(names.clone());
	}

	/**
	 * The arguments of a tool that takes none.
	 * @return the empty arguments
	 */
	public static ToolArguments empty() {
		return EMPTY;
	}

	// An unmodifiable copy of arguments in their order; arguments already immutable are
	// kept as they are.
	static Map<String, @Nullable Object> frozenCopy(Map<String, ? extends @Nullable Object> arguments) {
		if (arguments instanceof ToolArguments immutable) {
			return immutable;
		}
		return Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(arguments, "arguments")));
	}

	@Override
	public int size() {
		return this.values.length;
	}

	@Override
	public boolean containsKey(Object key) {
		return this.names.indexOf(key) >= 0;
	}

	@Override
	public @Nullable Object get(Object key) {
		int index = this.names.indexOf(key);
		return (index >= 0) ? this.values[index] : null;
	}

	@Override
	public Set<Entry<String, @Nullable Object>> entrySet() {
		return new AbstractSet<>() {

			@Override
			public Iterator<Entry<String, @Nullable Object>> iterator() {
				return new Iterator<>() {

					private int next;

					@Override
					public boolean hasNext() {
						return this.next < ToolArguments.this.values.length;
					}

					@Override
					public Entry<String, @Nullable Object> next() {
						if (!hasNext()) {
							throw new NoSuchElementException();
						}
						int index = this.next++;
						return new SimpleImmutableEntry<>(ToolArguments.this.names.names[index],
								ToolArguments.this.values[index]);
					}

				};
			}

			@Override
			public int size() {
				return ToolArguments.this.values.length;
			}

		};
	}

	@Override
	public boolean equals(@Nullable Object other) {
		if (other instanceof ToolArguments arguments && arguments.names == this.names) {
			return Arrays.equals(this.values, arguments.values);
		}
		return super.equals(other);
	}

	@Override
	public int hashCode() {
		int hash = 0;
		for (int i = 0; i < this.values.length; i++) {
			hash += this.names.names[i].hashCode() ^ Objects.hashCode(this.values[i]);
		}
		return hash;
	}

	/**
	 * The parameter names of one tool, shared by all of its calls' arguments.
	 */
	public static final class Names {

		private final String[] names;

		private Names(String[] names) {
			for (int i = 0; i < names.length; i++) {
				Objects.requireNonNull(names[i], "name");
				for (int j = 0; j < i; j++) {
					if (names[j].equals(names[i])) {
						throw new IllegalArgumentException("Duplicate parameter name '" + names[i] + "'");
					}
				}
			}
			this.names = names;
		}

		/**
		 * The names, in declaration order.
		 * @return the names
		 */
		public List<String> asList() {
			return List.of(this.names);
		}

		/**
		 * Arguments with these names.
		 * @param values one value per name, in the same order; the array is adopted, not
		 * copied, and must not be changed afterwards
		 * @return the arguments
		 * @throws IllegalArgumentException if the number of values differs from the
		 * number of names
		 */
		public ToolArguments with(@Nullable Object[] values) {
			if (values.length != this.names.length) {
				throw new IllegalArgumentException(
						"Expected " + this.names.length + " values for " + asList() + " but got " + values.length);
			}
			return (values.length == 0) ? EMPTY : new ToolArguments(this, values);
		}

		int indexOf(@Nullable Object key) {
			for (int i = 0; i < this.names.length; i++) {
				if (this.names[i].equals(key)) {
					return i;
				}
			}
			return -1;
		}

	}

}

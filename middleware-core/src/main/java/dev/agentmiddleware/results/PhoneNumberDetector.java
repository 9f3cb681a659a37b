package dev.agentmiddleware.results;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

import com.google.i18n.phonenumbers.PhoneNumberMatch;
import com.google.i18n.phonenumbers.PhoneNumberUtil;
import com.google.i18n.phonenumbers.PhoneNumberUtil.Leniency;
import org.jspecify.annotations.Nullable;

/**
 * Finds phone numbers ({@value #KIND}) with Google's libphonenumber
 * ({@code com.googlecode.libphonenumber:libphonenumber},
 * {@link PhoneNumberUtil#findNumbers(CharSequence, String, Leniency, long)}): a number
 * written with its country code ({@code +49 30 1234567}, {@code +1 415 555 0123}) is
 * found wherever it is from; a number written without one ({@code 030 1234567},
 * {@code (415) 555-0123}) only when it is a number of the default region. Without a
 * default region only numbers with a country code are found.
 *
 * <p>
 * The leniency decides how sure the library must be: {@link Leniency#VALID} (its default,
 * and this detector's) accepts numbers that are valid for their region however they are
 * grouped; {@link Leniency#STRICT_GROUPING} also asks for the region's usual grouping,
 * which leaves alone some oddly grouped numbers and some dates that are also valid
 * numbers (with region {@code DE}, {@code 05.11.2024} is a valid number under
 * {@code VALID}). {@link Leniency#POSSIBLE} masks any digit run of a possible length,
 * order numbers included. Thread-safe. <pre>{@code
 * PhoneNumberDetector phones = new PhoneNumberDetector("DE", Leniency.VALID);
 * phones.find("call 030 1234567");   // [Match[start=5, end=16]]
 * phones.find("order 4711-0815");    // []
 * }</pre>
 */
public final class PhoneNumberDetector implements PersonalDataDetector {

	/** The kind of this detector, {@code phone}. */
	public static final String KIND = "phone";

	// libphonenumber's region for "unknown": only numbers written with a country code are
	// found
	private static final String NO_REGION = "ZZ";

	private final PhoneNumberUtil phoneNumbers = PhoneNumberUtil.getInstance();

	private final String defaultRegion;

	private final Leniency leniency;

	/**
	 * Creates a detector of the numbers written with a country code, at leniency
	 * {@link Leniency#VALID}.
	 */
	public PhoneNumberDetector() {
		this(null, Leniency.VALID);
	}

	/**
	 * Creates a detector.
	 * @param defaultRegion the region of numbers written without a country code, as a
	 * two-letter country code such as {@code DE} or {@code US} (any case); {@code null}
	 * to find only numbers written with one
	 * @param leniency how sure the library must be that a find is a phone number
	 * @throws IllegalArgumentException when libphonenumber knows no such region
	 */
	public PhoneNumberDetector(@Nullable String defaultRegion, Leniency leniency) {
		this.leniency = Objects.requireNonNull(leniency, "leniency");
		if (defaultRegion == null) {
			this.defaultRegion = NO_REGION;
		}
		else {
			this.defaultRegion = defaultRegion.toUpperCase(Locale.ROOT);
			if (!this.phoneNumbers.getSupportedRegions().contains(this.defaultRegion)) {
				throw new IllegalArgumentException("'" + defaultRegion + "' is no region libphonenumber knows; use a"
						+ " two-letter country code such as DE or US");
			}
		}
	}

	@Override
	public String kind() {
		return KIND;
	}

	@Override
	public List<Match> find(String text) {
		if (!hasDigit(text)) {
			return List.of();
		}
		List<Match> matches = null;
		for (PhoneNumberMatch found : this.phoneNumbers.findNumbers(text, this.defaultRegion, this.leniency,
				Long.MAX_VALUE)) {
			if (matches == null) {
				matches = new ArrayList<>(2);
			}
			matches.add(new Match(found.start(), found.end()));
		}
		return (matches != null) ? matches : List.of();
	}

	@Override
	public String toString() {
		return "PhoneNumberDetector[defaultRegion=" + this.defaultRegion + ", leniency=" + this.leniency + "]";
	}

	private static boolean hasDigit(String text) {
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c >= '0' && c <= '9') {
				return true;
			}
		}
		return false;
	}

}

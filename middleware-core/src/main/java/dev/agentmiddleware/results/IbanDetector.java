package dev.agentmiddleware.results;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.iban4j.CountryCode;
import org.iban4j.Iban4jException;
import org.iban4j.IbanUtil;

/**
 * Finds IBANs ({@value #KIND}), with iban4j ({@code org.iban4j:iban4j}): a country code,
 * check digits and as many letters and digits as that country's IBANs have, written
 * together or in groups separated by single spaces ({@code DE89 3704 0044 0532 0130 00}),
 * accepted only when iban4j validates it ({@link IbanUtil#validate(String)}: the country,
 * the length, the format of the national account number and the check digits). So an IBAN
 * with a wrong check digit, or a code that merely starts like one, is left alone.
 * Upper-case IBANs only. Thread-safe. <pre>{@code
 * new IbanDetector().find("pay to DE89 3704 0044 0532 0130 00");  // [Match[start=7, end=34]]
 * new IbanDetector().find("pay to DE88 3704 0044 0532 0130 00");  // [] (the check digits fail)
 * }</pre>
 */
public final class IbanDetector implements PersonalDataDetector {

	/** The kind of this detector, {@code iban}. */
	public static final String KIND = "iban";

	// A country code and check digits, not inside a word
	private static final Pattern START = Pattern.compile("(?<![A-Za-z0-9])[A-Z]{2}[0-9]{2}");

	@Override
	public String kind() {
		return KIND;
	}

	@Override
	public List<Match> find(String text) {
		List<Match> matches = null;
		Matcher start = START.matcher(text);
		int from = 0;
		while (from < text.length() && start.find(from)) {
			int end = end(text, start.start());
			if (end < 0) {
				from = start.start() + 1;
				continue;
			}
			if (matches == null) {
				matches = new ArrayList<>(2);
			}
			matches.add(new Match(start.start(), end));
			from = end;
		}
		return (matches != null) ? matches : List.of();
	}

	/**
	 * The end of the valid IBAN starting at {@code start}, or -1.
	 */
	private static int end(String text, int start) {
		CountryCode country = CountryCode.getByCode(text.substring(start, start + 2));
		if (country == null || !IbanUtil.isSupportedCountry(country)) {
			return -1;
		}
		int length = IbanUtil.getIbanLength(country);
		StringBuilder iban = new StringBuilder(length);
		int i = start;
		while (i < text.length() && iban.length() < length) {
			char c = text.charAt(i);
			if (isAlphanumeric(c)) {
				iban.append(c);
			}
			else if (c != ' ' || iban.isEmpty() || i + 1 >= text.length() || !isAlphanumeric(text.charAt(i + 1))) {
				break;
			}
			i++;
		}
		if (iban.length() < length || (i < text.length() && isAlphanumeric(text.charAt(i)))) {
			return -1;
		}
		try {
			IbanUtil.validate(iban.toString());
			return i;
		}
		catch (Iban4jException ex) {
			return -1;
		}
	}

	private static boolean isAlphanumeric(char c) {
		return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
	}

}

package dev.resilience.sample.price;

import java.math.BigDecimal;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the prices, under {@code sample.price}.
 *
 * @param ethDefaultUsd the static ETH price in US dollars served when the oracle fails
 * and no price was read within the hour
 */
@ConfigurationProperties("sample.price")
public record PriceProperties(@DefaultValue("3000.00") BigDecimal ethDefaultUsd) {
}

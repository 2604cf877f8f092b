//! The words a question is asked with rather than about: English stopwords
//! (`how`, `do`, `which`), which rank but need not match, and Chinese
//! question and function words (`如何`, `是什么`, `有什么区别`, `的`), which
//! split a question written without spaces into its content words; and the
//! query words that look like identifiers (`work_mem`, `--data-only`), which
//! may name a symbol inside a longer query.

use crate::keys::symbol_key;
use crate::text::{is_cjk, is_hiragana, is_katakana};

/// English words that say nothing about the answer (a common English
/// stopword list, with `use`, `get` and `several`, whose stem is
/// `severity`'s): they never have to match, and never count toward the
/// "most words" of tier 2.
const STOPWORDS: &[&str] = &[
    "a", "about", "after", "again", "against", "all", "also", "am", "an", "and", "any", "are", "as", "at",
    "be", "because", "been", "before", "being", "below", "between", "both", "but", "by", "can", "could",
    "did", "do", "does", "doing", "down", "during", "each", "few", "for", "from", "further", "get", "had",
    "has", "have", "he", "her", "here", "hers", "him", "his", "how", "i", "if", "in", "into", "is", "it",
    "its", "just", "me", "more", "most", "my", "no", "nor", "not", "now", "of", "off", "on", "once", "only",
    "or", "other", "our", "ours", "out", "over", "own", "same", "several", "she", "should", "so", "some",
    "such", "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "those", "to",
    "too", "under", "until", "up", "use", "using", "very", "was", "we", "were", "what", "when", "where",
    "which", "while", "who", "whom", "whose", "why", "will", "with", "without", "would", "you", "your",
];

/// Chinese words that ask rather than say (and the light verbs 使用 and
/// 进行, as `use` among the English stopwords), longest first where one
/// holds another, each also in traditional characters where those differ
/// (`怎麼`, `為什麼`, `有什麼區別`). Words that are also parts of content
/// words (`地` in `地址`, `得` in `获得`, `和` in `总和`, `的` in `新的主版本`)
/// are left out.
const CJK_QUESTION_WORDS: &[&str] = &[
    "是怎么回事",
    "是怎麼回事",
    "多长时间",
    "多長時間",
    "是什么意思",
    "是什麼意思",
    "是为什么",
    "是為什麼",
    "有什么区别",
    "有什麼區別",
    "有什么不同",
    "有什麼不同",
    "有何区别",
    "有何區別",
    "有何不同",
    "的区别",
    "的區別",
    "的差别",
    "的差別",
    "的差异",
    "的差異",
    "可不可以",
    "需不需要",
    "有哪些",
    "怎么办",
    "怎麼辦",
    "是不是",
    "有没有",
    "有沒有",
    "能不能",
    "会不会",
    "會不會",
    "要不要",
    "什么意思",
    "什麼意思",
    "什么时候",
    "什麼時候",
    "什么是",
    "什麼是",
    "是什么",
    "是什麼",
    "为什么",
    "為什麼",
    "怎么样",
    "怎麼樣",
    "怎么用",
    "怎麼用",
    "如何用",
    "怎样用",
    "怎樣用",
    "在哪里",
    "在哪裡",
    "在哪裏",
    "应该",
    "應該",
    "怎么",
    "怎麼",
    "怎样",
    "怎樣",
    "如何",
    "哪几种",
    "哪幾種",
    "哪几个",
    "哪幾個",
    "哪一种",
    "哪一種",
    "哪一个",
    "哪一個",
    "哪一年",
    "哪些",
    "哪个",
    "哪個",
    "哪里",
    "哪裡",
    "哪裏",
    "哪儿",
    "哪兒",
    "哪种",
    "哪種",
    "哪年",
    "哪位",
    "是谁",
    "是誰",
    "何时",
    "何時",
    "为啥",
    "為啥",
    "是啥",
    "什么",
    "什麼",
    "请问",
    "請問",
    "多少",
    "几个",
    "幾個",
    "几种",
    "幾種",
    "多久",
    "多大",
    "能否",
    "可以",
    "一下",
    "使用",
    "进行",
    "進行",
    "以及",
    "并且",
    "並且",
    "或者",
    "而且",
    "哪",
    "谁",
    "誰",
    "吗",
    "嗎",
    "呢",
    "吧",
];

/// Chinese words as common as English stopwords (`another`, `between`,
/// `this`, `here`, `if`, `after`), none part of a content word, each also
/// in traditional characters where those differ; with the determiners and
/// their measure words (see [`CJK_DETERMINERS`]) they are cut from a
/// query word as question words are, unless that leaves less than two
/// chars (`每次都` is searched as written).
const CJK_COMMON_WORDS: &[&str] = &[
    "另一", "之间", "之間", "正在", "这里", "這裡", "這裏", "那里", "那裡", "那裏", "其他", "其它", "任何",
    "一些", "我们", "我們", "你们", "你們", "他们", "他們", "它们", "它們", "如果", "因为", "因為", "所以",
    "但是", "然后", "然後", "已经", "已經", "之前", "之后", "之後", "以后", "以後", "免得",
];

/// Chinese determiners (`a`, `another`, `each`, `this`, `that`) that, with
/// the measure word after them ([`CJK_MEASURE_WORDS`]), say nothing about
/// the answer: `一个表`, `另一台服务器`, `每次连接`, `这种情况`. Without a
/// measure word they are kept (`唯一`, `统一`, `这样`).
const CJK_DETERMINERS: &[&str] = &["另一", "每一", "一", "每", "这", "這", "那"];

/// Measure words a determiner counts with. Those that are also nouns of a
/// manual (`列` column, `行` row, `页` page, `位` bit) are left out: `表中的一列`
/// asks about a column.
const CJK_MEASURE_WORDS: &[char] = &[
    '个', '個', '台', '块', '塊', '张', '張', '种', '種', '条', '條', '次', '份', '项', '項', '组', '組',
    '套', '些', '件', '类', '類',
];

/// Chinese function characters that, standing alone as a word of a query
/// written with spaces (`VACUUM FULL 和 VACUUM 的区别`) or between names
/// (`用 PL/pgSQL 编写`, `psql里`), join or mark the words around them and
/// say nothing themselves.
const CJK_FUNCTION_WORDS: &[&str] = &[
    "和", "与", "及", "或", "的", "了", "是", "跟", "用", "把", "在", "里", "中", "将", "被", "对", "给",
    "从", "向", "让", "與", "裡", "裏", "將", "對", "給", "從", "讓",
];

/// Japanese words that ask rather than say (`how to use`, `the way to`,
/// `what is`), cut from a Japanese query word before its hiragana (see
/// [`japanese_pieces`]).
const JA_QUESTION_WORDS: &[&str] = &[
    "どうやって",
    "どうすれば",
    "どのように",
    "使い方",
    "使いかた",
    "やり方",
    "やりかた",
    "仕方",
    "方法",
    "とは",
    "について",
    "何",
];

/// Korean words that ask rather than say, written as words of their own
/// (`tasksel은 어떻게 사용하나요`: how, do I use).
const KO_QUESTION_WORDS: &[&str] = &[
    "어떻게",
    "무엇",
    "무엇인가요",
    "무엇입니까",
    "뭐",
    "뭔가요",
    "왜",
    "언제",
    "어디",
    "어디서",
    "어디에",
    "방법",
    "방법은",
    "하나요",
    "합니까",
    "하려면",
    "인가요",
    "입니까",
    "있나요",
    "있습니까",
    "되나요",
    "및",
    "그리고",
    "또는",
    "알려주세요",
];

/// Korean particles, which follow the word they mark without a space
/// (`tasksel은`, `sources.list를`).
const KO_PARTICLES: &[&str] =
    &["에서", "으로", "은", "는", "이", "가", "을", "를", "의", "에", "로", "와", "과", "도", "만"];

/// True for a word that says nothing about the answer: an English
/// stopword, a Chinese word made of nothing but question, function and
/// common words (`的区别`, `有什么区别`, `和` or `这个` alone), or a
/// Japanese one of hiragana and question words (`どうやって`). Folded.
pub(crate) fn is_stopword(folded: &str) -> bool {
    STOPWORDS.contains(&folded) || CJK_FUNCTION_WORDS.contains(&folded) || only_question_words(folded)
}

/// A name written in Latin letters or digits with a Korean particle after
/// it (`tasksel은`, `sources.list를`): the name.
fn without_particle(word: &str) -> Option<&str> {
    let name = KO_PARTICLES.iter().find_map(|p| word.strip_suffix(p))?;
    (!name.is_empty() && !name.chars().any(is_cjk)).then_some(name)
}

/// True for a Chinese, Japanese or Korean word that [`content_pieces`]
/// would cut away whole, or asks in Korean ([`KO_QUESTION_WORDS`]).
fn only_question_words(word: &str) -> bool {
    if is_japanese(word) {
        return japanese_pieces(word).is_empty();
    }
    if KO_QUESTION_WORDS.contains(&word) {
        return true;
    }
    word.chars().any(is_cjk) && split_question_words(word).iter().all(|p| split_common_words(p).is_empty())
}

/// A query word with Chinese question and function words cut out, then
/// common words and determiners (see [`CJK_COMMON_WORDS`]) where two chars
/// or more are left: the pieces between them, in order. A word that is
/// nothing but such words is kept whole (then it is what is searched for).
pub(crate) fn content_pieces(word: &str) -> Vec<&str> {
    if !word.chars().any(is_cjk) {
        return vec![word];
    }
    if is_japanese(word) {
        let pieces = japanese_pieces(word);
        return if pieces.is_empty() { vec![word] } else { pieces };
    }
    if let Some(name) = without_particle(word) {
        return vec![name];
    }
    let pieces = split_question_words(word);
    if pieces.is_empty() {
        return vec![word];
    }
    let mut out = Vec::with_capacity(pieces.len());
    for piece in pieces {
        let content = split_common_words(piece);
        if content.iter().map(|p| p.chars().count()).sum::<usize>() >= 2 {
            out.extend(content);
        } else {
            out.push(piece);
        }
    }
    out
}

/// True for a word written in Japanese: one with kana in it.
fn is_japanese(word: &str) -> bool {
    word.chars().any(|c| is_hiragana(c) || is_katakana(c))
}

/// A Japanese query word's content: the runs of kanji, katakana and other
/// letters between its hiragana (particles and endings: `の`, `を`,
/// `する`) and its question words ([`JA_QUESTION_WORDS`]):
/// `aptitudeの使い方` asks about `aptitude`, `cronの設定方法` about `cron`
/// and `設定`. None when it is nothing but those.
fn japanese_pieces(word: &str) -> Vec<&str> {
    split_at(word, |rest| {
        JA_QUESTION_WORDS
            .iter()
            .find(|q| rest.starts_with(**q))
            .map(|q| q.len())
            .or_else(|| rest.chars().next().filter(|&c| is_hiragana(c)).map(char::len_utf8))
    })
}

/// The pieces of a Chinese word between its question and function words
/// (none when it is nothing but those).
fn split_question_words(word: &str) -> Vec<&str> {
    split_at(word, |rest| CJK_QUESTION_WORDS.iter().find(|q| rest.starts_with(**q)).map(|q| q.len()))
}

/// The pieces of a Chinese word between its common words and determiners
/// (none when it is nothing but those).
fn split_common_words(word: &str) -> Vec<&str> {
    split_at(word, |rest| {
        determiner_len(rest)
            .or_else(|| CJK_COMMON_WORDS.iter().find(|w| rest.starts_with(**w)).map(|w| w.len()))
    })
}

/// The pieces of `word` between the words `cut` finds (it gives the byte
/// length of the one `rest` starts with), those with a letter or digit.
fn split_at(word: &str, cut: impl Fn(&str) -> Option<usize>) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut at = 0;
    while at < word.len() {
        let rest = &word[at..];
        if let Some(len) = cut(rest) {
            if start < at {
                pieces.push(&word[start..at]);
            }
            at += len;
            start = at;
            continue;
        }
        at += rest.chars().next().map_or(1, char::len_utf8);
    }
    if start < word.len() {
        pieces.push(&word[start..]);
    }
    pieces.into_iter().filter(|p| p.chars().any(|c| c.is_alphanumeric())).collect()
}

/// The length in bytes of a determiner and its measure word at the start of
/// `text` (`一个`, `另一台`), if it starts with one.
fn determiner_len(text: &str) -> Option<usize> {
    CJK_DETERMINERS.iter().find_map(|d| {
        let measure = text.strip_prefix(d)?.chars().next().filter(|c| CJK_MEASURE_WORDS.contains(c))?;
        Some(d.len() + measure.len_utf8())
    })
}

/// The identifier-like parts of a query word, as written (runs outside
/// CJK text holding `_`, `::`, a leading `-` or an inner capital:
/// `work_mem`, `--data-only`, `IntervalStyle`): a section defining such a
/// name is what a query naming it asks for, whatever else it says.
pub(crate) fn identifier_names(word: &str) -> Vec<&str> {
    if let Some(variable) = sigil_variable(word) {
        return vec![variable];
    }
    word.split(is_cjk)
        .map(|run| run.trim_matches(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-')))
        .map(|run| bare_name(run).unwrap_or(run))
        .filter(|run| is_identifier(run))
        .collect()
}

/// A variable written with its sigil, as a manual's entry names it:
/// Perl's `$_`, `$@`, `$0`, `@ARGV`, `%ENV`, a shell's `$HOME`. A sigil
/// takes one char that is no letter; `$` takes any name too, `@` and `%`
/// a name in capitals (`@staticmethod` is a decorator, `%s` a format).
fn sigil_variable(word: &str) -> Option<&str> {
    let sigil = word.chars().next().filter(|c| matches!(c, '$' | '@' | '%'))?;
    let rest = &word[1..];
    let mut chars = rest.chars();
    let one = chars.next().filter(|c| !c.is_whitespace() && !c.is_alphabetic() && chars.next().is_none());
    let name = rest.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && rest.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && (sigil == '$' || !rest.chars().any(|c| c.is_ascii_lowercase()));
    (one.is_some() || name).then_some(word)
}

/// The name a call, a subscript, a generic or a decorator is written
/// around, as a manual declares it: `os.path.join` of `os.path.join()`,
/// `pg_sleep` of `pg_sleep(5)`, `count` of `count(*)`, `generate_series` of
/// `generate_series(start, stop)`, `typing.Optional` of
/// `typing.Optional[int]`, `Vec` of `Vec<u8>`, `staticmethod` of
/// `@staticmethod`. None when the text is no such form.
pub(crate) fn bare_name(text: &str) -> Option<&str> {
    let name_char = |c: char| c.is_alphanumeric() || c == '_';
    let bare = text.strip_prefix('@').filter(|rest| rest.starts_with(name_char)).unwrap_or(text);
    // What the bracket holds runs to the end, or on into the next word
    // (`generate_series(start,`): text after it (`表(table)的定义`) is no
    // call's.
    let closer = |c: char| matches!(c, ')' | ']' | '>');
    let name = match bare.find(['(', '[', '<']) {
        Some(open)
            if bare[..open].ends_with(name_char)
                && (bare.ends_with(closer) || !bare[open..].contains(closer)) =>
        {
            &bare[..open]
        }
        Some(_) => return None,
        None => bare,
    };
    (name.len() < text.len()).then_some(name)
}

/// Words that name what kind of thing a manual defines, longest first where
/// one holds another: a query that is one name and one of these (`port
/// configuration parameter`, `geqo配置参数`, `lag function`,
/// `tsquery（数据类型）`, `NOT（操作符）`) asks for that name's definition.
const KIND_WORDS: &[&str] = &[
    "configuration parameters",
    "configuration parameter",
    "environment variable",
    "parameter",
    "setting",
    "function",
    "operator",
    "data type",
    "type",
    "配置参数",
    "环境变量",
    "数据类型",
    "操作符",
    "运算符",
    "参数",
    "函数",
    "类型",
];

/// The symbol key of the one name a query qualifies by its kind
/// ([`KIND_WORDS`]); None unless the query is that name and kind words.
pub(crate) fn kind_named(words: &[String]) -> Option<String> {
    let folded: String = words
        .join(" ")
        .to_lowercase()
        .chars()
        .map(|c| if "()（）[]【】,，、:：".contains(c) { ' ' } else { c })
        .collect();
    let mut rest = format!(" {folded} ");
    let mut found = false;
    for kind in KIND_WORDS {
        // A Latin kind is a whole word; a Chinese one stands anywhere.
        let pattern = if kind.chars().any(is_cjk) { (*kind).to_owned() } else { format!(" {kind} ") };
        while let Some(at) = rest.find(&pattern) {
            rest.replace_range(at..at + pattern.len(), " ");
            found = true;
        }
    }
    let mut names = rest.split_whitespace();
    let (Some(name), None) = (names.next(), names.next()) else { return None };
    let letters = name.chars().filter(|c| c.is_alphanumeric()).count();
    let code_like = name.chars().all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c));
    (found && letters >= 2 && code_like).then(|| symbol_key(name))
}

/// Labels that start a message a program prints (`ERROR:`, `fatal:`), or
/// end the name of what it raised (`TypeError:`, `RuntimeWarning:`).
const MESSAGE_LABELS: &[&str] = &["error", "warning", "exception", "fatal", "panic", "notice"];

/// Words a pasted message has after its label, at least.
const MESSAGE_WORDS: usize = 4;

/// Where the message of a query pasted from a program's output starts (the
/// word after its label), or None for any other query. Such a query has a
/// label ending in `:` among its first two words (`ERROR:`, `psql: error:`, `RuntimeWarning:`,
/// `django.core.exceptions.ImproperlyConfigured:`), then the message, of at
/// least [`MESSAGE_WORDS`] words. A label is a word of letters, digits, `_`
/// and `.` that is or ends in an error word, or a dotted or camel-case
/// name (the class raised). The names inside such a message
/// (`DateTimeField received a naive datetime`) are what it is about, not
/// what it asks for: the section quoting the message is.
pub(crate) fn message_start(words: &[String]) -> Option<usize> {
    let label = |w: &str| {
        let Some(name) = w.strip_suffix(':') else { return false };
        let identifier =
            name.len() >= 2 && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
        let last = name.rsplit('.').next().unwrap_or(name);
        let lower = last.to_ascii_lowercase();
        let camel = last.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            && last.chars().skip(1).any(|c| c.is_ascii_uppercase())
            && last.chars().any(|c| c.is_ascii_lowercase());
        identifier && (MESSAGE_LABELS.iter().any(|l| lower.ends_with(l)) || name.contains('.') || camel)
    };
    let at = words.iter().take(2).position(|w| label(w))?;
    (words.len() - at > MESSAGE_WORDS).then_some(at + 1)
}

/// The symbol keys of a query word's Latin names (`char`, `varchar` and
/// `text` in `char、varchar和text有什么区别`): its runs of letters, digits
/// and `_` outside CJK text, of two letters or more, stopwords left out.
/// A section defining several of a question's names is what it asks about.
pub(crate) fn latin_names(word: &str) -> Vec<String> {
    word.split(|c: char| is_cjk(c) || !(c.is_alphanumeric() || c == '_'))
        .filter(|run| run.chars().filter(|c| c.is_alphabetic()).count() >= 2)
        .map(symbol_key)
        .filter(|k| !is_stopword(k))
        .collect()
}

fn is_identifier(run: &str) -> bool {
    let letters = run.chars().filter(|c| c.is_alphabetic()).count();
    // A short option (`-i` of `git rebase -i`, `-e` of `set -e`) is a name
    // of one letter.
    let short_option = letters == 1 && run.len() == 2 && run.starts_with('-');
    if letters < 2 {
        return short_option;
    }
    let inner_capital = run
        .char_indices()
        .skip(1)
        .any(|(i, c)| c.is_uppercase() && run[..i].chars().last().is_some_and(char::is_lowercase));
    run.contains('_') || run.contains("::") || run.starts_with('-') || inner_capital || dotted(run)
}

/// A dotted name (`os.path.join`, `json.dumps`): parts joined by single
/// dots, two of them of two letters or more (not `e.g`, nor a version).
fn dotted(run: &str) -> bool {
    let parts: Vec<&str> = run.split('.').collect();
    let named = parts.iter().filter(|p| p.chars().filter(|c| c.is_alphabetic()).count() >= 2).count();
    parts.len() >= 2 && parts.iter().all(|p| !p.is_empty()) && named >= 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn japanese_particles_and_question_words_split_a_question() {
        assert_eq!(content_pieces("aptitudeの使い方"), ["aptitude"]);
        assert_eq!(content_pieces("cronの設定方法"), ["cron", "設定"]);
        assert_eq!(content_pieces("aptでパッケージを検索する"), ["apt", "パッケージ", "検索"]);
        assert_eq!(content_pieces("ネットワークの設定はどうやるの"), ["ネットワーク", "設定"]);
        assert_eq!(content_pieces("ファイアウォール"), ["ファイアウォール"]);
        assert!(is_stopword("どうやって") && is_stopword("するの") && !is_stopword("パッケージ"));
        // Hiragana alone is what is searched for.
        assert_eq!(content_pieces("すべて"), ["すべて"]);
        // Chinese has no kana: its rules are its own.
        assert_eq!(content_pieces("如何使用方法"), ["方法"]);
    }

    #[test]
    fn korean_particles_after_names_and_question_words_need_not_match() {
        assert_eq!(content_pieces("tasksel은"), ["tasksel"]);
        assert_eq!(content_pieces("sources.list를"), ["sources.list"]);
        assert_eq!(content_pieces("패키지를"), ["패키지를"]);
        assert!(is_stopword("어떻게") && is_stopword("방법") && !is_stopword("설치"));
    }

    #[test]
    fn chinese_question_words_split_a_question() {
        assert_eq!(content_pieces("表继承是怎么回事"), ["表继承"]);
        assert_eq!(content_pieces("DELETE和TRUNCATE有什么区别"), ["DELETE和TRUNCATE"]);
        assert_eq!(content_pieces("如何在不阻塞写入的情况下创建索引"), ["在不阻塞写入的情况下创建索引"]);
        assert_eq!(content_pieces("怎么重命名表中的一列"), ["重命名表中的一列"]);
        assert_eq!(content_pieces("多版本并发控制是什么"), ["多版本并发控制"]);
        assert_eq!(content_pieces("sid是什么意思"), ["sid"]);
        assert_eq!(content_pieces("什么是虚拟包"), ["虚拟包"]);
        assert_eq!(content_pieces("源代码在哪里"), ["源代码"]);
        // Conjunctions of two or more chars split what they join.
        assert_eq!(content_pieces("如何查看锁以及等待的会话"), ["查看锁", "等待的会话"]);
        assert_eq!(content_pieces("错误是为什么"), ["错误"]);
        // How many, how much, how long, how big ask too.
        assert_eq!(content_pieces("一个表占用多少磁盘空间"), ["表占用", "磁盘空间"]);
        assert_eq!(content_pieces("最多能有几个连接"), ["最多能有", "连接"]);
        assert_eq!(content_pieces("检查点要多长时间"), ["检查点要"]);
        // Light verbs, like English `use`: what is used or done is the subject.
        assert_eq!(content_pieces("对正在运行的集群进行基础备份"), ["对", "运行的集群", "基础备份"]);
        assert_eq!(content_pieces("怎么使用窗口函数"), ["窗口函数"]);
        // Questions asked as "A or not A", and what to do.
        assert_eq!(content_pieces("能不能让系统每天自动更新"), ["让系统每天自动更新"]);
        assert_eq!(content_pieces("无线网卡不能用怎么办"), ["无线网卡不能用"]);
        // Who, when and which: 谁 and 哪 are never part of a content word.
        assert_eq!(content_pieces("gimp最早是谁开发的"), ["gimp最早", "开发的"]);
        assert_eq!(content_pieces("1.0是哪年发布的"), ["1.0是", "发布的"]);
        assert_eq!(content_pieces("路径工具有哪几种模式"), ["路径工具有", "模式"]);
        assert_eq!(content_pieces("什么时候需要清理"), ["需要清理"]);
        // In traditional characters too (Taiwan's manuals, its readers).
        assert_eq!(content_pieces("怎麼設定預設的閘道"), ["設定預設的閘道"]);
        assert_eq!(content_pieces("為什麼沒有聲音"), ["沒有聲音"]);
        assert_eq!(content_pieces("apt和aptitude有什麼區別"), ["apt和aptitude"]);
        assert_eq!(content_pieces("設定檔在哪裡"), ["設定檔"]);
        // Determiners with their measure word, and words as common as
        // English stopwords (another, each, between, if).
        assert_eq!(content_pieces("怎样查询另一台服务器上的表"), ["查询", "服务器上的表"]);
        assert_eq!(content_pieces("如何取消另一个会话正在执行的查询"), ["取消", "会话", "执行的查询"]);
        assert_eq!(content_pieces("免得每次都要输入"), ["都要输入"]);
        assert_eq!(content_pieces("两个日期之间的日期序列"), ["两个日期", "的日期序列"]);
        assert_eq!(content_pieces("这种情况如果出错"), ["情况", "出错"]);
        // A determiner alone, or before a noun that is no measure word, stays.
        assert_eq!(content_pieces("唯一约束"), ["唯一约束"]);
        assert_eq!(content_pieces("重命名表中的一列"), ["重命名表中的一列"]);
        assert_eq!(content_pieces("这样"), ["这样"]);
        // Cutting them must leave two chars or more, or the word is kept.
        assert_eq!(content_pieces("每次都"), ["每次都"]);
        assert_eq!(content_pieces("怎么一个会"), ["一个会"]);
        // Nothing but question words: searched as written.
        assert_eq!(content_pieces("是什么"), ["是什么"]);
        // Latin words are never cut.
        assert_eq!(content_pieces("whatever"), ["whatever"]);
    }

    #[test]
    fn words_of_nothing_but_question_or_function_words_are_stopwords() {
        for word in [
            "的区别",
            "有什么区别",
            "和",
            "与",
            "用",
            "里",
            "是什么",
            "是什麼",
            "與",
            "裡",
            "这个",
            "how",
            "the",
        ] {
            assert!(is_stopword(word), "{word}");
        }
        for word in ["区别", "锁", "vacuum", "表继承是怎么回事", "和平", "每次都"] {
            assert!(!is_stopword(word), "{word}");
        }
    }

    #[test]
    fn a_name_and_its_kind_name_a_symbol() {
        let words = |q: &str| q.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
        assert_eq!(kind_named(&words("port configuration parameter")), Some("port".into()));
        assert_eq!(kind_named(&words("geqo配置参数")), Some("geqo".into()));
        assert_eq!(kind_named(&words("port 配置参数")), Some("port".into()));
        assert_eq!(kind_named(&words("tsquery（数据类型）")), Some("tsquery".into()));
        assert_eq!(kind_named(&words("lag function")), Some("lag".into()));
        assert_eq!(kind_named(&words("function lag")), Some("lag".into()));
        assert_eq!(kind_named(&words("NOT（操作符）")), Some("not".into()));
        // No kind, two names, a Chinese name or a kind alone: no symbol.
        assert_eq!(kind_named(&words("port")), None);
        assert_eq!(kind_named(&words("window function lag")), None);
        assert_eq!(kind_named(&words("多态函数")), None);
        assert_eq!(kind_named(&words("function")), None);
        // A kind word inside another word is not one.
        assert_eq!(kind_named(&words("typed tables")), None);
    }

    #[test]
    fn messages_pasted_from_a_program() {
        let words = |q: &str| q.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
        for pasted in [
            "RuntimeWarning: DateTimeField received a naive datetime while time zone support is active",
            "django.core.exceptions.ImproperlyConfigured: Requested setting DEBUG, but settings are not configured",
            "ERROR: could not serialize access due to concurrent update",
            "psql: error: connection to server on socket failed",
            "TypeError: can't compare offset-naive and offset-aware datetimes",
        ] {
            assert!(message_start(&words(pasted)).is_some(), "{pasted}");
        }
        for asked in [
            "ERROR: deadlock detected",
            "how do I fix ERROR: permission denied",
            "note: the planner uses statistics",
            "work_mem: how much memory per sort",
            "vacuum full versus plain vacuum",
        ] {
            assert_eq!(message_start(&words(asked)), None, "{asked}");
        }
    }

    #[test]
    fn latin_names_inside_words() {
        assert_eq!(latin_names("char、varchar和text有什么区别"), ["char", "varchar", "text"]);
        assert_eq!(latin_names("char,"), ["char"]);
        assert_eq!(latin_names("the"), Vec::<String>::new());
        assert_eq!(latin_names("如何取消查询"), Vec::<String>::new());
        assert_eq!(latin_names("pg_locks视图"), ["pg_locks"]);
    }

    #[test]
    fn variables_written_with_their_sigil_are_names() {
        for word in ["$_", "$@", "$0", "$/", "@ARGV", "%ENV", "@_", "$HOME", "$foo_bar"] {
            assert_eq!(identifier_names(word), [word], "{word}");
        }
        for word in ["$", "%s", "@staticmethod", "$1.50", "%d%%"] {
            assert!(!identifier_names(word).contains(&word), "{word}");
        }
        assert_eq!(identifier_names("@staticmethod"), Vec::<&str>::new());
    }

    #[test]
    fn identifiers_inside_words() {
        assert_eq!(
            identifier_names("default_transaction_isolation配置参数"),
            ["default_transaction_isolation"]
        );
        assert_eq!(identifier_names("IntervalStyle配置参数"), ["IntervalStyle"]);
        assert_eq!(identifier_names("--data-only"), ["--data-only"]);
        assert_eq!(identifier_names("(work_mem)"), ["work_mem"]);
        assert!(identifier_names("vacuum").is_empty());
        assert!(identifier_names("VACUUM").is_empty());
        assert_eq!(identifier_names("-e"), ["-e"]);
        assert_eq!(identifier_names("-i"), ["-i"]);
        assert!(identifier_names("-1").is_empty());
        assert!(identifier_names("a-b").is_empty());
        assert!(identifier_names("索引").is_empty());
        // Names written as calls or decorators, and dotted names.
        assert_eq!(identifier_names("pg_sleep(5)"), ["pg_sleep"]);
        assert_eq!(identifier_names("os.path.join()"), ["os.path.join"]);
        assert_eq!(identifier_names("@functools.cache"), ["functools.cache"]);
        assert_eq!(identifier_names("json.dumps"), ["json.dumps"]);
        for word in ["e.g.", "i.e.", "3.11", "v1.2", "end."] {
            assert!(identifier_names(word).is_empty(), "{word}");
        }
    }

    #[test]
    fn calls_subscripts_generics_and_decorators_name_what_they_apply() {
        assert_eq!(bare_name("os.path.join()"), Some("os.path.join"));
        assert_eq!(bare_name("pg_sleep(5)"), Some("pg_sleep"));
        assert_eq!(bare_name("count(*)"), Some("count"));
        assert_eq!(bare_name("generate_series(start, stop)"), Some("generate_series"));
        assert_eq!(bare_name("generate_series(start,"), Some("generate_series"));
        assert_eq!(bare_name("@staticmethod"), Some("staticmethod"));
        assert_eq!(bare_name("@functools.cache"), Some("functools.cache"));
        assert_eq!(bare_name("typing.optional[int]"), Some("typing.optional"));
        assert_eq!(bare_name("vec<u8>"), Some("vec"));
        assert_eq!(bare_name("character varying(n)"), Some("character varying"));
        assert_eq!(bare_name("hashmap<string,"), Some("hashmap"));
        // Not calls: nothing or a space before the paren, no paren, words
        // after the brackets.
        for text in ["表(table)的定义", "f(x)y", "to_char(now(),"] {
            assert_eq!(bare_name(text), None, "{text}");
        }
        for text in ["(work_mem)", "create index (a)", "work_mem", "@", "@>", "a->b", "<>", "<=", "[1]"] {
            assert_eq!(bare_name(text), None, "{text}");
        }
    }
}
